import { Link } from 'react-router';
import { DAILY_USES, MAX_UPLOAD_TEXT, RETENTION_TEXT } from '@/lib/limits';
import { LegalPage } from './LegalPage';

export default function Terms() {
  return (
    <LegalPage title="Terms of Service">
      <p>
        These terms govern your use of AI Editor. By using the website you agree to them. If you do not agree, please do
        not use the service.
      </p>
      <h2>1. Who may use AI Editor</h2>
      <p>
        You must be at least 13 years old to use AI Editor. If you are under the age of majority where you live, you may
        use the service only with the permission of a parent or legal guardian.
      </p>
      <h2>2. The service</h2>
      <p>
        AI Editor offers AI image tools. The service is in beta: every feature is free, features may change, and the
        service may be interrupted. Guests can use Face Enhancement; signed-in users can use every available feature up
        to {DAILY_USES} times per feature per day and can download their results. Uploads are limited to JPEG, PNG and
        WebP images of up to {MAX_UPLOAD_TEXT}.
      </p>
      <h2>3. Your content</h2>
      <p>
        You keep all rights to the images you upload and to the results created from them. You give us only the
        permission we need to store and process your images to provide the service. Images and results are deleted{' '}
        {RETENTION_TEXT} after upload, so please download the results you want to keep.
      </p>
      <p>
        You confirm that you have the right to upload each image, and that your use of it respects the law and the
        rights of others.
      </p>
      <h2>4. Acceptable use</h2>
      <p>You agree not to:</p>
      <ul>
        <li>upload images you have no right to use, or that infringe anyone's copyright, trademark or privacy;</li>
        <li>
          create content that is illegal, sexually exploits minors, harasses or defames people, or depicts real people
          in a misleading or non-consensual way;
        </li>
        <li>use the face tools to impersonate or deceive;</li>
        <li>try to get around the daily limits, overload the service, or access other users' images;</li>
        <li>reverse engineer, scrape or resell the service except as its open-source licence allows.</li>
      </ul>
      <h2>5. Accounts</h2>
      <p>
        Sign-in uses your Google account. You are responsible for activity under your account. We may suspend accounts
        that break these terms.
      </p>
      <h2>6. Open source</h2>
      <p>
        The software behind AI Editor is free software under the GNU Affero General Public License, version 3 or later.
        Its source code is available from the link in the footer. These terms do not limit your rights under that
        licence.
      </p>
      <h2>7. No warranty</h2>
      <p>
        AI results can be imperfect or unexpected. The service is provided "as is" and "as available", without
        warranties of any kind, to the extent permitted by law.
      </p>
      <h2>8. Limitation of liability</h2>
      <p>
        To the extent permitted by law, we are not liable for indirect or consequential losses, or for the loss of
        images that you did not download before they were deleted.
      </p>
      <h2>9. Copyright complaints</h2>
      <p>
        We respond to notices of copyright infringement as described in our <Link to="/dmca">DMCA Policy</Link>.
      </p>
      <h2>10. Changes and termination</h2>
      <p>
        We may update these terms; the date at the top shows the latest version. You may stop using the service at any
        time. We may suspend or end access for anyone who breaks these terms.
      </p>
      <h2>11. Contact</h2>
      <p>
        Questions about these terms? <Link to="/contact">Contact us</Link>.
      </p>
    </LegalPage>
  );
}
