import { Link } from 'react-router';
import { MAX_UPLOAD_TEXT, RETENTION_TEXT } from '@/lib/limits';
import { LegalPage } from './LegalPage';

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy">
      <p>
        This policy explains what information AI Editor ("we", "us") collects when you use this website, why we collect
        it, how long we keep it and what rights you have. We collect as little as we can to run the service.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Images you upload and the results we create.</strong> Photos (JPEG, PNG or WebP, up to{' '}
          {MAX_UPLOAD_TEXT}), masks you paint, prompts and tool settings you submit, and the PNG images we produce.
          Uploaded metadata such as EXIF location data is not copied into results.
        </li>
        <li>
          <strong>Your Google account details, if you sign in.</strong> Your account id, email address, display name and
          profile photo URL, as provided by Google Sign-In through Firebase Authentication. We never see your password.
        </li>
        <li>
          <strong>A session cookie.</strong> A signed, HTTP-only cookie that links your browser to your uploads and,
          once you sign in, to your account. See the <Link to="/cookies">Cookie Policy</Link>.
        </li>
        <li>
          <strong>Usage counts.</strong> How many times you used each feature today, to apply the daily limits.
        </li>
        <li>
          <strong>Messages you send us.</strong> The name, email address and message you enter in the contact form.
        </li>
        <li>
          <strong>Technical data.</strong> Your IP address and request details appear in server logs and are used to
          protect the service against abuse (for example, rate limits on the contact form).
        </li>
      </ul>
      <h2>How we use it</h2>
      <ul>
        <li>To process your images with the tool you chose and show you the result.</li>
        <li>To keep you signed in, enforce the daily limits and allow downloads for signed-in users.</li>
        <li>To answer your messages.</li>
        <li>To keep the service secure and working.</li>
      </ul>
      <p>We do not sell your information, and we do not use your images to train AI models.</p>
      <h2>How long we keep it</h2>
      <ul>
        <li>Uploaded images and results are deleted automatically {RETENTION_TEXT} after they are uploaded.</li>
        <li>Usage counts are kept for the current day only.</li>
        <li>Contact messages are kept for as long as we need them to answer you, and at most one year.</li>
        <li>Server logs are kept for a short period for security purposes.</li>
      </ul>
      <h2>Who else processes your data</h2>
      <ul>
        <li>
          <strong>Google (Firebase Authentication)</strong> handles Google Sign-In when you choose to sign in.
        </li>
        <li>
          <strong>Model providers.</strong> Most tools run on our own servers. Some tools (for example text-to-image
          generation) may be run by an external model provider, such as Replicate, that receives the image or prompt for
          that request only. The <Link to="/status">status page</Link> shows which engine runs each tool.
        </li>
        <li>
          <strong>Advertising.</strong> If advertising is enabled on a page, the ad provider may set its own cookies,
          described in its own privacy policy.
        </li>
      </ul>
      <h2>Who can see your images</h2>
      <p>
        Your uploads and results are available only to you, through your session or your signed-in account. Links to
        results are checked on every request.
      </p>
      <h2>Your rights</h2>
      <p>
        Depending on where you live (for example under the GDPR or the CCPA), you may have the right to access, correct,
        delete or export your personal data, to object to or restrict its processing, and to complain to a data
        protection authority. To exercise these rights, <Link to="/contact">contact us</Link>. Because images are
        deleted after {RETENTION_TEXT}, we usually hold no images of yours at all.
      </p>
      <h2>Children</h2>
      <p>AI Editor is not intended for children under 13, and we do not knowingly collect their data.</p>
      <h2>Changes</h2>
      <p>
        If we change this policy, we will update the date at the top of this page. Significant changes will be announced
        on the site.
      </p>
      <h2>Contact</h2>
      <p>
        Questions about privacy? Use our <Link to="/contact">contact form</Link>.
      </p>
    </LegalPage>
  );
}
