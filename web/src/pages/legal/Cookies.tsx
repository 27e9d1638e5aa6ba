import { Link } from 'react-router';
import { LegalPage } from './LegalPage';

export default function Cookies() {
  return (
    <LegalPage title="Cookie Policy">
      <p>
        This page explains the cookies and similar browser storage AI Editor uses. We use only what is needed to run the
        service and remember your choices. We do not use analytics or tracking cookies.
      </p>
      <h2>Cookies</h2>
      <ul>
        <li>
          <strong>Session cookie</strong> (strictly necessary). A signed, HTTP-only cookie that links your browser to
          the images you uploaded and, after you sign in, to your account. It cannot be read by scripts on the page and
          is sent only to this website.
        </li>
      </ul>
      <h2>Browser storage</h2>
      <ul>
        <li>
          <strong>Theme</strong> (preference). The colours, appearance and corner radius you choose on the{' '}
          <Link to="/customize">Customize</Link> page, saved in your browser's local storage.
        </li>
        <li>
          <strong>Tutorial progress</strong> (preference). Which tool tutorials you have finished or closed, so they are
          not shown again.
        </li>
        <li>
          <strong>Sign-in</strong> (strictly necessary, only if you sign in). Google Sign-In through Firebase
          Authentication keeps its sign-in state in your browser's storage.
        </li>
      </ul>
      <h2>Third-party cookies</h2>
      <p>
        If advertising is enabled on a page, the ad provider may set its own cookies. They are governed by the
        provider's own policy.
      </p>
      <h2>Managing cookies</h2>
      <p>
        You can delete cookies and site data in your browser settings at any time. Deleting the session cookie signs you
        out and disconnects your browser from images you uploaded as a guest. Blocking it prevents the tools from
        working.
      </p>
      <p>
        See also our <Link to="/privacy">Privacy Policy</Link>.
      </p>
    </LegalPage>
  );
}
