// The demo terms and conditions. 'company' terms are accepted once by an administrator for the
// whole organisation; 'user' terms by each user (see TermsTable).

export type DemoTerm = {
  key: 'tos' | 'dpa' | 'conduct';
  title: string;
  scope: 'company' | 'user';
  publishedDaysAgo: number;
  /** Plain text; paragraphs separated by a blank line. */
  content: string;
};

export const DEMO_TERMS: DemoTerm[] = [
  {
    key: 'tos',
    title: 'Terms of Service',
    scope: 'company',
    publishedDaysAgo: 365,
    content: [
      'These Terms of Service govern the use of the Content Creators Platform ("the Platform") by your organisation and by every creator it invites. By accepting them on behalf of your organisation you confirm that you are authorised to do so.',
      'Your organisation keeps all rights to the courses, lessons, assessments and learner data it uploads. You grant us only the rights needed to store, process and deliver that content to your learners through the channels you choose.',
      'You agree not to use the Platform to send unsolicited messages, to deliver unlawful content, or to contact learners who have not been informed about the training. Plan limits apply as shown on the subscription page; we will tell you before any change to them.',
      'Either party may end the agreement with thirty days of written notice. After termination you can export your data for thirty days, after which it is deleted.',
    ].join('\n\n'),
  },
  {
    key: 'dpa',
    title: 'Data Processing Agreement',
    scope: 'company',
    publishedDaysAgo: 200,
    content: [
      'This Data Processing Agreement forms part of the Terms of Service and applies whenever we process personal data of your learners and users on your behalf, as a processor under Article 28 of the General Data Protection Regulation (GDPR).',
      'We process learner names, contact details, preferred language and learning activity only to deliver your courses and to show you their results. We do not sell personal data or use it for our own marketing.',
      'Data is stored in the European Union. Our staff are bound by confidentiality, access is logged, and we notify you of a personal data breach without undue delay and at the latest within 48 hours.',
      'Archived learners and courses are deleted permanently after 30 days. On request we help you answer data subject requests within the time the law allows.',
    ].join('\n\n'),
  },
  {
    key: 'conduct',
    title: 'Creator Code of Conduct',
    scope: 'user',
    publishedDaysAgo: 60,
    content: [
      'As a course creator you speak to learners in their everyday chat apps. This code describes how we expect every creator to behave.',
      'Write content that is accurate, inclusive and respectful. Do not include personal data of real people in lessons or assessments, and credit the sources you quote.',
      'Respect learners’ time: keep lessons short, schedule them in working hours, and never use a course channel for anything other than the training it was created for.',
      'Report any content that breaks these rules to your organisation’s administrator.',
    ].join('\n\n'),
  },
];
