// Every user-facing validation and error text of the spec, once, in English.
// The English text is what the API sends; the UI and CLI translate by the key (`validation.<key>` /
// `errors.<key>` in locales/), found with messageKey(text).

export const MESSAGES = {
  // §5 validation
  required: 'This field is required.',
  descriptionRequired: 'The description is required.',
  descriptionMax: 'The description may not be greater than 200 characters.',
  nameRequired: 'The name is required.',
  nameInvalid: 'The name may only contain letters, spaces, apostrophes and dashes.',
  nameMax: 'The name may not be greater than 255 characters.',
  learningMinutesRange: 'Learning minutes must be between 1 and 300.',
  imageType: 'The image must be a file of type: jpg, jpeg, svg, png, bmp, gif.',
  imageDimensions: 'The image must be UP TO 500 pixels by 500 pixels.',
  imageSize: 'The image may not be greater than 2 MB.',
  emailInvalid: 'The email must be valid.',
  emailRequiredForChannel: 'The email is required for this channel.',
  emailTaken: 'The email has already been taken.',
  phoneRequiredForChannel: 'Phone is required for this channel.',
  phoneInvalid: 'The phone must start with a plus followed by digits only.',
  channelUnknown: 'The selected channel is invalid.',
  channelsRequired: 'Select at least one channel.',
  localeInvalid: 'The selected language is invalid.',
  deliveryDateRequired: 'Select delivery date of the course.',
  deliveryDateRange: 'Date must be in range from tomorrow to next 3 months.',
  deliveryChannelRequired: 'Select delivery channel of the course.',
  deliveryTimeInvalid: 'The delivery time must be in the HH:mm format.',
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
  questionRequired: 'The assessment question is required.',
  questionMax: 'The assessment question may not be greater than 300 characters.',
  answerRequired: 'The answer text is required.',
  answerMax: 'The answer text may not be greater than 100 characters.',
  answersMax: 'An assessment may have up to 11 answers.',
  answersMin: 'An assessment needs at least two answers.',
  responseRequired: 'The answer response is required.',
  responseMax: 'The answer response may not be greater than 300 characters.',
  oneCorrectAnswer:
    'One choice option in assessment question should be marked as a correct answer.',
  similarAnswers: 'Assessment answers can not be similar.',
  lessonsMin: 'A course needs at least one lesson.',
  lessonsMax: 'A course may have up to 30 lessons.',
  primaryLanguageRequired: 'A course needs exactly one primary language.',
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
  // §7 / §8 server and client texts
  invalidCredentials: 'The user credentials were incorrect.',
  tooManyAttempts: 'Too Many Attempts.',
  slowDown: 'Wow, slow down. Too many requests. Please wait and try again.',
  invalidDataNoInfo: 'Invalid data sent. No info from server.',
  internalServerError: 'Internal server error happened. Please try again later.',
  networkError: 'Network error. Failed to receive response from server.',
  offline: 'Seems like you are offline. Please check your internet connection.',
  unknownError: 'Whoops! An unknown error occurred',
  serverErrorPrefix: 'Server error:',
  invalidRefreshToken: 'The refresh token is invalid.',
  unauthenticated: 'Unauthenticated.',
  twoFactorRequired: 'Two-factor authentication is required.',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled.',
  invalidPlatform: 'The selected platform is invalid.',
  forbidden: 'This action is unauthorized.',
  notFound: 'Not found.',
  routeNotFound: 'The requested resource was not found.',
  classroomsFailed: 'Failed to fetch classrooms.',
  learnerActiveInCourse: 'The learner is active in a course and cannot be archived.',
  learnersListCreateFailed: 'Failed to create learners list. Please try later or contact support.',
  exportRequestFailed: 'Error during export request. Please try again later.',
  requestFunctionalityFail: 'An error occurred during request. Retry.',
  translationNotFound: 'Translation not found',
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
