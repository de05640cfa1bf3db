// Every user-facing validation and error text of the spec, once, in English.
// The English text is what the API sends; the UI and CLI translate by the key (`validation.<key>` /
// `errors.<key>` in locales/), found with messageKey(text).

export const MESSAGES = {
  // §5 validation
  required: 'This field is required.',
  descriptionRequired: 'The description is required.',
  descriptionMax: 'The description may not be greater than 200 characters.',
  categoryMax: 'The category may not be greater than 255 characters.',
  nameRequired: 'The name is required.',
  nameInvalid: 'The name may only contain letters, spaces, apostrophes and dashes.',
  nameMax: 'The name may not be greater than 255 characters.',
  listNameMax: 'The name may not be greater than 100 characters.',
  nameTaken: 'The name has already been taken.',
  learningMinutesRange: 'Learning minutes must be between 1 and 300.',
  imageType: 'The image must be a file of type: jpg, jpeg, svg, png, bmp, gif.',
  imageDimensions: 'The image must be UP TO 500 pixels by 500 pixels.',
  imageSize: 'The image may not be greater than 2 MB.',
  emailInvalid: 'The email must be valid.',
  emailRequiredForChannel: 'The email is required for this channel.',
  emailTaken: 'The email has already been taken.',
  phoneRequiredForChannel: 'Phone is required for this channel.',
  phoneInvalid: 'The phone must start with a plus followed by digits only.',
  phoneNotPossible: 'The phone number is not a valid number for its country.',
  channelUnknown: 'The selected channel is invalid.',
  channelsRequired: 'Select at least one channel.',
  localeInvalid: 'The selected language is invalid.',
  deliveryDateRequired: 'Select delivery date of the course.',
  deliveryDateRange: 'Date must be in range from tomorrow to next 3 months.',
  deliveryChannelRequired: 'Select delivery channel of the course.',
  deliveryTimeInvalid: 'The delivery time must be in the HH:mm format.',
  deliveryDateInvalid: 'The delivery date must be a valid date in the YYYY-MM-DD format.',
  repeatPeriodInvalid: 'The repeat period must be Day, Week or Month.',
  repeatEveryMin: 'The repeat interval must be a whole number of at least 1.',
  exclusionDayInvalid: 'Only saturdays and sundays can be skipped.',
  enrollmentCloseTimeInvalid:
    'The enrollment close time must be a valid date and time in the YYYY-MM-DDTHH:mm format.',
  reminderCountRange: 'The number of reminders must be a whole number between 0 and 5.',
  reminderIntervalRange: 'The hours between reminders must be a whole number between 1 and 168.',
  autoPauseAfterRange:
    'The unanswered lessons before a pause must be a whole number between 0 (never) and 10.',
  booleanInvalid: 'The field must be true or false.',
  targetRetentionInvalid: 'The target retention must be a whole percentage from 70 to 97.',
  timeZoneInvalid: 'The time zone must be a known time zone, such as Europe/Rome.',
  quietHoursInvalid:
    'Quiet hours need a start and an end in the HH:mm format, and they must differ.',
  holidayCountryUnknown: 'Public holidays are not known for the selected country.',
  learnersRequired: 'Select at least one learner.',
  learnersListRequired: 'Please create at least one learners list to proceed.',
  noListsForChannel: 'There are no learners lists for the selected channel.',
  noChannelAccess: 'You have no access to any channel.',
  lessonTitleRequired: 'The lesson title is required.',
  lessonTitleMax: 'The lesson title may not be greater than 140 characters.',
  topicIntroRequired: 'The topic introduction is required.',
  topicIntroMax: 'The topic introduction may not be greater than 600 characters.',
  topicContentRequired: 'The topic content is required.',
  topicContentMax: 'The topic content may not be greater than 1200 characters.',
  lessonDayRange: 'The day must be between 1 and 30.',
  lessonLanguageNotInCourse: 'The lesson language is not one of the course languages.',
  lessonDuplicate: 'There is already a lesson for this day and language.',
  lessonMissing: 'The lesson is missing.',
  mediaTypeInvalid: 'The media type must be link or upload.',
  mediaUrlInvalid: 'The media link must be a valid http or https URL.',
  questionRequired: 'The assessment question is required.',
  questionMax: 'The assessment question may not be greater than 300 characters.',
  assessmentTypeInvalid: 'The assessment type must be multiple_choice, open_answer or true_false.',
  answerRequired: 'The answer text is required.',
  answerMax: 'The answer text may not be greater than 100 characters.',
  answersMax: 'An assessment may have up to 11 answers.',
  answersMin: 'An assessment needs at least two answers.',
  responseRequired: 'The answer response is required.',
  responseMax: 'The answer response may not be greater than 300 characters.',
  answerResponseDefault: 'Thank you for your answer.',
  thankYouMessageMax: 'The thank-you message may not be greater than 300 characters.',
  oneCorrectAnswer:
    'One choice option in assessment question should be marked as a correct answer.',
  similarAnswers: 'Assessment answers can not be similar.',
  trueFalseAnswers: 'A true/false question needs exactly two answers.',
  trueFalseOneCorrect: 'Only one answer of a true/false question can be marked as correct.',
  lessonsMin: 'A course needs at least one lesson.',
  lessonsMax: 'A course may have up to 30 lessons.',
  primaryLanguageRequired: 'A course needs exactly one primary language.',
  languageDuplicate: 'A language may be added to a course only once.',
  courseStatusInvalid: 'The status must be draft or scheduled.',
  languageUnknown: 'The selected language is invalid.',
  fixAllErrors: 'Please fix all errors before proceed.',
  learnerListFileRequired: 'The learners list file is required.',
  learnerListFileType: 'The file must be a file of type: xls, xlsx, csv.',
  courseSourceFileRequired: 'The course source file is required.',
  courseSourceFileType: 'The file must be a file of type: txt, docx, pptx, pdf.',
  aiFileType: 'The file must be a document, video or audio file of a supported type.',
  fileTooLarge: 'File is too large. Max size: 700 MB.',
  otpWrongSetup: 'Entered codes are wrong',
  otpInvalid: 'Invalid OTP',
  invalidCode: 'Invalid code.',
  termsMandatory: 'You must accept mandatory terms and conditions.',
  termsNotAcceptable: 'Only an administrator of your organization can accept these terms.',
  termsInvalid: 'The selected terms and conditions are invalid.',
  // §7 / §8 server and client texts
  invalidCredentials: 'The user credentials were incorrect.',
  tooManyAttempts: 'Too Many Attempts.',
  slowDown: 'Wow, slow down. Too many requests. Please wait and try again.',
  invalidDataNoInfo: 'Invalid data sent. No info from server.',
  internalServerError: 'Internal server error happened. Please try again later.',
  networkError: 'Network error. Failed to receive response from server.',
  responseTimeout: 'The server did not answer in time.',
  notCcpApi: 'The server that answered is not the CCP API: check the API address.',
  offline: 'Seems like you are offline. Please check your internet connection.',
  unknownError: 'Whoops! An unknown error occurred',
  serverErrorPrefix: 'Server error:',
  invalidRefreshToken: 'The refresh token is invalid.',
  unauthenticated: 'Unauthenticated.',
  twoFactorRequired: 'Two-factor authentication is required.',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled.',
  twoFactorNotEnabled:
    'Two-factor authentication is not set up yet. Set it up before signing in with a code.',
  twoFactorSetupNotStarted: 'Request a QR code before confirming two-factor authentication.',
  twoFactorCodesFormat: 'Enter two consecutive 6-digit codes.',
  invalidPlatform: 'The selected platform is invalid.',
  forbidden: 'This action is unauthorized.',
  notFound: 'Not found.',
  routeNotFound: 'The requested resource was not found.',
  classroomsFailed: 'Failed to fetch classrooms.',
  courseArchived: 'An archived course cannot be edited. Restore it first.',
  courseNotEditable: 'Only draft, scheduled or paused courses can be edited.',
  courseAlreadyArchived: 'The course is already archived.',
  courseNotArchived: 'The course is not archived.',
  courseNotPaused: 'Only a paused course can be resumed.',
  courseNotCancelable: 'Only a scheduled, active or paused course can be canceled.',
  learnerActiveInCourse: 'The learner is taking “{{course}}” and cannot be archived.',
  learnerAlreadyArchived: 'The learner is already archived.',
  learnerNotArchived: 'The learner is not archived.',
  learnerUnknown: 'The selected learner is invalid.',
  learnersListUnknown: 'The selected learners list is invalid.',
  learnersListCreateFailed: 'Failed to create learners list. Please try later or contact support.',
  exportRequestFailed: 'Error during export request. Please try again later.',
  // Analytics and exports (issue 5)
  analyticsDateInvalid: 'The date must be a valid date in the YYYY-MM-DD format.',
  analyticsDateOrder: 'The end date must be a date after or equal to the start date.',
  analyticsPeriodMax: 'The period may not be longer than 366 days.',
  learnerStatusInvalid:
    'The status must be interacted, completed, unreachable, active, dormant, not_started or paused.',
  exportNotFound: 'The export was not found.',
  exportNoPrivileges: 'You have no privileges to download this export.',
  exportNotReady: 'The export is not ready yet.',
  exportTypeStatistics: 'Delivery statistics',
  exportTypeNotEnrolledLearners: 'Not enrolled learners',
  exportTypeCourse: 'Course statistics',
  exportMailSubject: 'Your export is ready',
  exportMailText:
    'Hello {name},\n\nyour export "{export}" of the course "{course}" is ready. Download it here: {url}\n',
  requestFunctionalityFail: 'An error occurred during request. Retry.',
  requestedFunctionInvalid: 'The selected requested function is invalid.',
  translationNotFound: 'Translation not found',
  // Delivery: the channel events endpoint and channel tokens (issue 5)
  channelEventsCount: 'Send between 1 and 500 events.',
  channelEventTypeInvalid:
    'The event type must be delivered, read, answered, opted_in or declined.',
  channelEventOccurredAtInvalid:
    'The occurred_at must be an ISO 8601 date and time with a time zone.',
  channelEventDeliveryRequired: 'The delivery_uuid is required for this event.',
  channelEventLearnerRequired: 'The course_uuid and learner_uuid are required for this event.',
  channelEventAnswerRequired: 'The answer is required for an answered event.',
  channelEventAnswerInvalid: 'The answer must be {correct: true|false, text?}.',
  deliveryNotFound: 'The lesson delivery was not found.',
  enrolmentNotFound: 'The enrolment was not found.',
  lessonNotSentYet: 'The lesson has not been sent yet.',
  lessonHasNoAssessment: 'The lesson has no assessment to answer.',
  enrolmentClosed: 'The enrolment for this course is closed.',
  courseNotDelivering: 'The course is not delivering lessons.',
  channelTokensAdminOnly: 'Only an administrator can manage channel tokens.',
  // Delivery connectors (issue 16).
  connectionUnknownField: 'This field is not part of the connection.',
  connectionFieldRequired: 'This field is required to connect.',
  connectionsAdminOnly: 'Only an administrator can connect channels.',
  connectionNotFound: 'This channel is not connected.',
  connectionNotAvailable: 'This server cannot send through this provider yet.',
  connectionOptionInvalid: 'Choose one of the listed values.',
  connectionKeyTaken:
    'Another company is already connected to this provider account: check the id you entered, or ask the provider’s administrator which company it belongs to.',
  googleChatPublicUrlMissing:
    'The HTTP endpoint URL audience needs the server’s public address (CCP_PUBLIC_URL): ask whoever runs the server to set it, or choose the project number audience.',
  webexPublicUrlMissing:
    'Webex sends learners’ answers to this server’s public address, and none is set (CCP_PUBLIC_URL): ask whoever runs the server to set its https address, then connect again.',
  publicUrlNotHttps:
    'Providers call this server only at an https address, and its public address (CCP_PUBLIC_URL) is not one: ask whoever runs the server to set its https address before you paste these values.',
  webexPublicUrlNotHttps:
    'Webex sends learners’ answers only to an https address, and this server’s public address (CCP_PUBLIC_URL) is not one: ask whoever runs the server to set its https address, then connect again.',
  secretsKeyMissing:
    'The server has no key to store secrets (CCP_SECRETS_KEY): ask whoever runs it to set one.',
  webhookSignatureInvalid:
    'The request is not signed by the provider, or its signature is too old.',
  webhookWrongLearner: 'Only the learner the lesson was sent to can answer it.',
  // Pause and resume (issue 28).
  enrolmentNotPaused: 'The learner is not paused in this course.',
  enrolmentNotEnrolled: 'Only a learner who is receiving the course’s lessons can be paused.',
  // Resending what did not go (issue 25).
  resendNothing: 'Name the lessons or invitations to resend, or ask for all that failed.',
  resendNotAllowed: 'Only an administrator or the course\u2019s creator can resend its lessons.',
  resendCourseNotLive:
    'The course is not running (paused, canceled or archived): resume it before resending its lessons.',
  webhookRetryLater: 'The message could not be handled completely now; send it again later.',
  slackInstallNeedsClient: 'Enter the Slack app\u2019s client id and client secret first.',
  testLessonNeedsConnection:
    'Connect this channel and make sure its test passes before you send yourself a test lesson.',
  slackInstallStateInvalid:
    'The Slack installation link has expired or was not made here: start again from the Channels page.',
  teamsPackageNeedsHttps:
    'Teams reaches its bot only at an https address, and this server\u2019s public address (CCP_PUBLIC_URL) is not one: ask whoever runs the server to set its https address, then download the app package.',
  teamsPackageNeedsAppId:
    'Save the Teams connection with the bot\u2019s Application (client) ID first (a GUID such as 3f2b6c1e-8a4d-4e59-9b1a-2c7d5e8f9a01): the app package names it as its bot.',
  // Bulk learner import (issue 6); {{name}} marks a value filled in with fillMessage().
  importFileType: 'The file must be a file of type: csv, xlsx.',
  importXlsUnsupported:
    'Old Excel .xls files cannot be imported. Save the file as .xlsx or .csv and upload it again.',
  importFileEmpty: 'The file is empty: its first row must name the columns, as in the template.',
  importColumnsMissing:
    'The file has no column for: {{columns}}. Its first row must name the columns, as in the template.',
  importContactColumnMissing: 'The file needs an email or a phone column.',
  importColumnDuplicate: 'The column {{column}} appears more than once in the first row.',
  importNoRows: 'The file has no learners: add one learner per row under the first row.',
  importTooManyRows:
    'The file has more than 100,000 learners. Split it into files of at most 100,000 rows.',
  importCsvBroken:
    'Line {{line}}: a quoted field is never closed, or the row is longer than 64 KB. Fix the quotes and upload the file again.',
  importXlsxBroken: 'The file could not be read as an Excel workbook (.xlsx).',
  importRowDuplicate: 'The {{field}} is already on line {{line}} of this file.',
  importRowTooManyFields: 'The row has more fields than the first row has columns.',
  importNotCancelable: 'Only a queued or running import can be canceled.',
  importInterrupted: 'The import was interrupted too many times and was stopped.',
  importInternalError: 'The import stopped because of an internal error. Please try again later.',
  importCanceled: 'The import was canceled.',
  importErrorReportExpired:
    'The error report of this import was deleted: reports are kept for {{days}} days after the import ends.',
  importMailCompleted: 'Your learners import is complete',
  importMailDryRun: 'Your learners import check is complete',
  importMailFailed: 'Your learners import failed',
  importColumnMapInvalid:
    'The column mapping must name one of: first_name, last_name, email, phone, channels, locale, ignore.',
  importDefaultCountryInvalid: 'The default country must be a two-letter country code such as IT.',
  // Sign-in codes and API tokens (issue 12).
  codeAlreadyUsed: 'This code was already used. Wait for the next code of your authenticator app.',
  apiTokenScopeInvalid: 'The selected scope is invalid.',
  apiTokenScopesRequired: 'Choose at least one scope.',
  apiTokenNameMax: 'The name may not be greater than 100 characters.',
  apiTokenExpiryInvalid: 'The expiry must be between 1 and 365 days.',
  apiTokenScopeMissing: 'This API token does not allow this call: it needs the {{scope}} scope.',
  apiTokenNotAllowed: 'API tokens cannot manage tokens or sessions: sign in to do this.',
  // AI transformer and translator (issue 6); {{name}} marks a value filled in by the API.
  aiModelInvalid: 'The model must be gpt-3.5 or gpt-4.',
  aiPromptUnknown: 'The selected prompt is invalid.',
  aiContentRequired: 'The content is required.',
  aiContentMax: 'The content may not be greater than 20000 characters.',
  aiLessonsCountRange: 'The number of lessons must be between 1 and 30.',
  aiAssessmentTypeInvalid: 'The assessment type must be random, true_false or multiple_option.',
  aiFileUnreadable:
    'The file could not be read: it is damaged, protected, or not the type its name says.',
  aiFileNoText: 'No text could be found in the file.',
  aiNotConfigured:
    'This needs an AI provider, and none is connected yet. Your administrator can connect one.',
  aiTranscriptionNotConfigured:
    'Video and audio files need an AI provider, and none is connected yet: upload a txt, docx, pptx or pdf document, or ask your administrator to connect one.',
  aiProviderFailed: 'The AI service failed to answer. Please try again later.',
  aiProviderTimeout: 'The AI service did not answer in time. Please try again later.',
  aiProviderRefused:
    'The AI service refused the request (HTTP {{status}}). Your administrator can check its connection.',
  aiInvalidResponse: 'The AI service returned an answer that could not be used. Please try again.',
  translationServerError:
    'Translation failed: the AI service answered with a server error. Please try again later.',
  translationSizeMismatch:
    'Translation failed: the AI service returned {{received}} texts for the {{sent}} it was sent. Please try again.',
  translationSameLanguage: 'The target language is already the primary language of the course.',
  translationExists:
    'The course already has lessons in this language. Send overwrite: true to replace them.',
  translationNothing: 'The course has no lessons in its primary language to translate.',
  aiWarningFewerLessons:
    'The source had enough text for {{count}} lessons only, so {{count}} were made instead of {{requested}}.',
  aiWarningSourceTruncated:
    'The source was too long to read at once: only its first {{count}} characters were used.',
  aiWarningContentShortened:
    'Some of the source did not fit in the 1200 characters of a lesson and was left out.',
  aiWarningAssessmentRebuilt:
    'Day {{day}}: the AI assessment was not valid and was rebuilt from the lesson text.',
  aiWarningAssessmentMissing: 'Day {{day}}: no assessment could be made from the text; add one.',
  aiWarningLessonDropped: 'Day {{day}}: the AI lesson was not usable and was left out.',
  // API robustness (issue 11)
  uploadMalformed:
    'The upload could not be read: the form data is malformed or incomplete. Please upload the file again.',
  uploadTimeout:
    'The upload stopped arriving before it was complete. Please upload the file again.',
  requestMalformed: 'The request could not be understood: check its address, headers and body.',
  requestTimeout: 'The request took too long to arrive. Please try again.',
  payloadTooLarge: 'The request body is too large.',
  unsupportedMediaType: 'The request body must be JSON or multipart/form-data.',
  idsMax: 'At most 10,000 items can be sent in one request.',
  nulCharacter: 'The text may not contain the NUL character (U+0000).',
  aiDocumentTooLarge:
    'The document is too large or too complex to read: a PDF may be at most 50 MB, and the text of a docx or pptx may unpack to at most 64 MB.',
  importIrregularRows:
    'The file has more than 10,000 rows whose number of fields differs from the first row. Check the delimiter and that every row has the columns of the first.',
  importCsvNotText: 'The file is not a CSV text file. Save it as "CSV UTF-8" and upload it again.',
  importXlsxTooLarge:
    'The workbook is too large to read safely: its first sheet may unpack to at most 96 MB, with at most 500,000 different texts and 256 columns. Save it as a .csv file and upload it again.',
  importChannelsColumnMissing:
    'The file has no column for: channels. Map a column to the channels, or choose a default channel for the file.',
  importPhoneInvalid:
    'The phone {{number}} is not a valid number of {{country}}. Write it with its international prefix (+…), or choose the country of national numbers.',
  importPhoneOtherCountry:
    'The phone {{number}} is not a valid number of {{country}}; it is valid as {{candidates}}. Choose that country for national numbers (or map a country column), or write the number with its international prefix.',
  importPhoneAmbiguous:
    'The phone {{number}} can be read as {{candidates}}. Choose the country of national numbers (or map a country column), or write the number with its international prefix.',
  importPhoneLandline:
    "The phone {{number}} is a landline: WhatsApp needs a mobile number. Add the learner's mobile, or choose other channels.",
  importPhoneCountriesInvalid:
    'The countries of phone columns must be a JSON object of column names and country codes, such as {"Mobile (Ireland)": "IE"}.',
  importPhoneCountryInvalid:
    'The country of a phone column must be a two-letter country code such as IE.',
  importPhoneCountryColumn:
    'The column {{column}} is not a phone column of the file: choose a country only for the columns mapped to the phone.',
  importEncodingInvalid: 'The encoding must be one of: utf-8, utf-16le, utf-16be, windows-1252.',
  imageMultipartOnly: 'The image must be uploaded as a file, in a multipart/form-data request.',
  // Accounts and team (issue 17).
  passwordTooShort: 'The password must be at least 12 characters.',
  passwordTooLong: 'The password may not be greater than 200 characters.',
  passwordIsEmail: 'The password may not be your e-mail address.',
  passwordTooCommon: 'This password is too common. Choose one that is harder to guess.',
  passwordCurrentWrong: 'The current password is not correct.',
  linkInvalid: 'This link is invalid, was already used or has expired. Ask for a new one.',
  recoveryCodeInvalid: 'Invalid recovery code.',
  recoveryCodeFormat: 'A recovery code has 10 letters and digits, like abcde-12345.',
  codeOrRecoveryRequired: 'Enter a code from your authenticator app or a recovery code.',
  teamAdminOnly: 'Only an administrator can manage the team.',
  deliveryHoursAdminOnly: 'Only an administrator can change the delivery hours.',
  lastAdministrator: 'The company needs at least one active administrator.',
  cannotChangeYourself: 'You cannot deactivate yourself.',
  memberDeactivated: 'The creator is deactivated.',
  memberNotDeactivated: 'The creator is not deactivated.',
  invitationPending: 'There is already a pending invitation for this e-mail.',
  csrfHeaderMissing: 'This request must come from the CCP app itself.',
  invitationAccepted: 'This invitation has already been accepted: sign in instead.',
  roleInvalid: 'The role must be admin or creator.',
  sessionCurrent: 'This is the session you are using: sign out instead.',
  freshCodeRequired: 'Enter a fresh code from your authenticator app to confirm it is you.',
  conversationDaysRange: 'The number of days must be a whole number from 1 to 31.',
  conversationCourseNotFound: 'The learner is not in this course.',
} as const;

export type TMessageKey = keyof typeof MESSAGES;

const byText = new Map<string, TMessageKey>(
  (Object.entries(MESSAGES) as [TMessageKey, string][]).map(([key, text]) => [text, key]),
);

/** The key of a known English message, so a UI can translate a server text; undefined otherwise. */
export const messageKey = (text: string): TMessageKey | undefined => byText.get(text);

/** "Learners limit reached." and friends: the 402 text for a plan function. */
export const limitReachedMessage = (feature: string): string => {
  const words = feature.replace(/-/g, ' ').replace(/\ba i\b/g, 'AI');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} limit reached.`;
};

type TTemplate = { key: TMessageKey; pattern: RegExp };

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Line {{line}}: a quoted …" → /^Line (?<line>.+?): a quoted …$/ (a repeated name must repeat). */
const templatePattern = (template: string): RegExp => {
  const seen = new Set<string>();
  const source = template
    .split(/(\{\{\w+\}\})/)
    .map((part) => {
      const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
      if (!name) return escapeRegExp(part);
      if (seen.has(name)) return `\\k<${name}>`;
      seen.add(name);
      return `(?<${name}>.+?)`;
    })
    .join('');
  return new RegExp(`^${source}$`, 's');
};

let templates: readonly TTemplate[] | undefined;

/**
 * The key and values of a filled-in MESSAGES template ("The phone 333 is not a valid number of
 * IT…" → importPhoneInvalid, {number, country}), so the API and the web say it in the user's
 * language; undefined for any other text.
 */
export const messageTemplateOf = (
  text: string,
): { key: TMessageKey; params: Record<string, string> } | undefined => {
  templates ??= (Object.entries(MESSAGES) as [TMessageKey, string][])
    .filter(([, template]) => /\{\{\w+\}\}/.test(template))
    .map(([key, template]) => ({ key, pattern: templatePattern(template) }));
  for (const template of templates) {
    const groups = template.pattern.exec(text)?.groups;
    if (groups) return { key: template.key, params: { ...groups } };
  }
  return undefined;
};
