/** Said wherever sign-in is offered or shown while this server runs the Firebase Auth emulator. */
export const LOCAL_SIGN_IN_NOTICE =
  'Sign-in is local: this server runs the Firebase Auth emulator, so accounts are test accounts that exist only here.';
