/**
 * The account menu slot of the header. The sign-in issue owns this folder and fills it (Sign In button for
 * guests; avatar, name, 'Account', 'Guest'/'Free User' and 'Sign Out' for signed-in users, learnt from
 * `GET /api/me`). Until then it renders nothing, so the header shows no control that does not work.
 */
export function AccountMenu() {
  return null;
}
