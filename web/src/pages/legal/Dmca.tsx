import { Link } from 'react-router';
import { RETENTION_TEXT } from '@/lib/limits';
import { LegalPage } from './LegalPage';

export default function Dmca() {
  return (
    <LegalPage title="DMCA Notice and Takedown Policy">
      <p>
        AI Editor respects the intellectual property of others and expects its users to do the same. We respond to clear
        notices of alleged copyright infringement under the U.S. Digital Millennium Copyright Act (DMCA), 17 U.S.C. §
        512.
      </p>
      <p>
        Please note that images on AI Editor are private to the user who uploaded them and are deleted automatically{' '}
        {RETENTION_TEXT} after upload; nothing is published on the site.
      </p>
      <h2>Filing a notice</h2>
      <p>
        If you believe material on AI Editor infringes your copyright, send us a notice through our{' '}
        <Link to="/contact">contact form</Link> with the subject "DMCA notice". It must include:
      </p>
      <ol>
        <li>your physical or electronic signature;</li>
        <li>identification of the copyrighted work you claim has been infringed;</li>
        <li>
          identification of the material you claim is infringing, with enough information for us to locate it (for
          example, the result link);
        </li>
        <li>your contact information: name, address, telephone number and email address;</li>
        <li>
          a statement that you have a good-faith belief that the use is not authorized by the copyright owner, its agent
          or the law;
        </li>
        <li>
          a statement, under penalty of perjury, that the information in the notice is accurate and that you are the
          copyright owner or authorized to act on the owner's behalf.
        </li>
      </ol>
      <h2>What happens next</h2>
      <p>
        When we receive a complete notice, we remove or disable access to the material promptly and make a reasonable
        effort to inform the user who uploaded it.
      </p>
      <h2>Counter-notice</h2>
      <p>
        If you believe material was removed by mistake or misidentification, you may send a counter-notice through the
        same form, including: your signature; identification of the material and where it appeared; a statement under
        penalty of perjury that you have a good-faith belief it was removed by mistake or misidentification; your name,
        address and telephone number; and a statement that you consent to the jurisdiction of the federal court for your
        address (or, outside the United States, any judicial district in which we may be found) and will accept service
        of process from the person who filed the original notice. We may restore the material 10 to 14 business days
        after receiving a valid counter-notice, unless the complainant tells us they have filed a court action.
      </p>
      <h2>Repeat infringers</h2>
      <p>We will suspend or end the accounts of users who repeatedly infringe copyright.</p>
      <h2>Misrepresentation</h2>
      <p>
        Under 17 U.S.C. § 512(f), anyone who knowingly misrepresents that material is infringing, or that it was removed
        by mistake, may be liable for damages.
      </p>
    </LegalPage>
  );
}
