// One shape for SQLite and Postgres: uuids and timestamps are text (ISO 8601 UTC, which sorts
// correctly as text), booleans are integers 0/1, structured values are JSON text.
type Bool = number;
type Timestamp = string;

export type CompaniesTable = {
  uuid: string;
  name: string;
  plan_key: string;
  created_at: Timestamp;
  /** Delivery hours (0034): null is Europe/Rome, no quiet hours, no holidays. */
  time_zone?: string | null;
  quiet_hours_start?: string | null;
  quiet_hours_end?: string | null;
  holiday_country?: string | null;
};
export type ClassroomsTable = {
  uuid: string;
  company_uuid: string;
  name: string;
  position: number;
  created_at: Timestamp;
};
export type UsersTable = {
  uuid: string;
  company_uuid: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  locale: string;
  is_admin: Bool;
  is_2fa_enabled: Bool;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  /** Last accepted TOTP time step, so a code cannot be replayed. */
  totp_last_step: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Set when an administrator deactivated the creator: no sign-in, no token works (issue 17). */
  deactivated_at?: Timestamp | null;
  last_sign_in_at?: Timestamp | null;
};
export type AuthTokensTable = {
  token_hash: string;
  user_uuid: string;
  kind: 'access' | 'refresh';
  /** 'otp': first login step (opens only the 2FA calls); 'full': signed in. */
  stage: 'otp' | 'full';
  family_uuid: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
  /** A spent refresh token's: what its successor pair was derived from (lib/tokens.ts). */
  successor_seed: string | null;
};
export type AuthFailuresTable = { uuid: string; key: string; created_at: Timestamp };
export type PlansTable = { key: string; name: string; position: number };
export type PlanFunctionsTable = { plan_key: string; function_key: string; limit_value: number };
export type UsageEventsTable = {
  uuid: string;
  company_uuid: string;
  function_key: string;
  amount: number;
  created_at: Timestamp;
};
export type UpgradeRequestsTable = {
  uuid: string;
  company_uuid: string;
  user_uuid: string;
  requested_function: string;
  created_at: Timestamp;
};
export type TermsTable = {
  uuid: string;
  title: string;
  content: string;
  /** 'company': accepted once by an administrator for the organisation; 'user': by each user. */
  scope: 'company' | 'user';
  position: number;
  published_at: Timestamp;
};
export type TermsAcceptancesTable = {
  uuid: string;
  term_uuid: string;
  company_uuid: string;
  /** Who accepted; for 'user' terms also whom it covers. */
  user_uuid: string;
  accepted_at: Timestamp;
};
export type ChannelsTable = {
  uuid: string;
  key: string;
  name: string;
  contact: 'email' | 'phone';
  position: number;
};
export type LanguagesTable = { uuid: string; name: string; short_name: string; position: number };
// Dropped by migration 0008 (the texts live in locales/); kept for 0003 and 0008's down.
export type TranslationsTable = { uuid: string; locale: string; key: string; value: string };
export type CoursesTable = {
  uuid: string;
  company_uuid: string;
  classroom_uuid: string;
  name: string;
  description: string;
  image_path: string | null;
  category: string | null;
  enrollment: string | null;
  status: string;
  /** JSON of the Distribution (spec §3). */
  distribution: string | null;
  creator_uuid: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  scheduled_at: Timestamp | null;
  delivered_at: Timestamp | null;
  deleted_at: Timestamp | null;
};
export type CourseLanguagesTable = {
  course_uuid: string;
  language_uuid: string;
  is_primary: Bool;
  position: number;
};
export type LessonsTable = {
  uuid: string;
  course_uuid: string;
  day: number;
  language_uuid: string;
  title: string;
  topic_intro: string;
  topic_content: string;
  learning_minutes: number;
  /** JSON: { type: 'link' | 'upload', url } or null. */
  media: string | null;
  /** JSON of the Assessment (spec §3) or null. */
  assessment: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type CourseLearnersListsTable = { course_uuid: string; list_uuid: string };
export type LearnersTable = {
  uuid: string;
  company_uuid: string;
  first_name: string;
  last_name: string;
  /** Lowercased; unique within a company. */
  email: string | null;
  phone: string | null;
  locale: string;
  /** IANA zone (0034): the learner's own, or their phone's country's; null: the company's. */
  time_zone: string | null;
  /** JSON array of channel keys. */
  channels: string;
  active: Bool;
  reachability: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
};
/** Per company: moved by every write to its learners or list members (0019). */
export type LearnersVersionsTable = { company_uuid: string; version: number };
export type LearnersListsTable = {
  uuid: string;
  company_uuid: string;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type LearnersListMembersTable = { list_uuid: string; learner_uuid: string };

export type Database = {
  companies: CompaniesTable;
  classrooms: ClassroomsTable;
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  auth_failures: AuthFailuresTable;
  plans: PlansTable;
  plan_functions: PlanFunctionsTable;
  usage_events: UsageEventsTable;
  upgrade_requests: UpgradeRequestsTable;
  terms: TermsTable;
  terms_acceptances: TermsAcceptancesTable;
  channels: ChannelsTable;
  languages: LanguagesTable;
  translations: TranslationsTable;
  courses: CoursesTable;
  course_languages: CourseLanguagesTable;
  lessons: LessonsTable;
  course_learners_lists: CourseLearnersListsTable;
  learners: LearnersTable;
  learners_versions: LearnersVersionsTable;
  learners_lists: LearnersListsTable;
  learners_list_members: LearnersListMembersTable;
  enrollments: EnrollmentsTable;
  lesson_deliveries: LessonDeliveriesTable;
  question_repeats: QuestionRepeatsTable;
  learner_events: LearnerEventsTable;
  outbox_messages: OutboxMessagesTable;
  channel_tokens: ChannelTokensTable;
  exports: ExportsTable;
  jobs: JobsTable;
  api_tokens: ApiTokensTable;
  auth_sessions: AuthSessionsTable;
  password_resets: PasswordResetsTable;
  invitations: InvitationsTable;
  recovery_codes: RecoveryCodesTable;
  audit_log: AuditLogTable;
  channel_connections: ChannelConnectionsTable;
  learner_channel_identities: LearnerChannelIdentitiesTable;
  teams_conversation_references: TeamsConversationReferencesTable;
  channel_inbound_messages: ChannelInboundMessagesTable;
  channel_messages: ChannelMessagesTable;
  google_chat_users: GoogleChatUsersTable;
  channel_test_lessons: ChannelTestLessonsTable;
};

// Accounts and team (issue 17).
export type AuthSessionsTable = {
  family_uuid: string;
  user_uuid: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp;
  ended_at: Timestamp | null;
};
export type PasswordResetsTable = {
  token_hash: string;
  user_uuid: string;
  ip: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
};
export type InvitationsTable = {
  uuid: string;
  company_uuid: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  revoked_at: Timestamp | null;
  user_uuid: string | null;
};
export type RecoveryCodesTable = {
  uuid: string;
  user_uuid: string;
  code_hash: string;
  created_at: Timestamp;
  used_at: Timestamp | null;
};
export type AuditLogTable = {
  uuid: string;
  company_uuid: string;
  actor_uuid: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  details: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
};

// Delivery connectors (issue 16).
export type ChannelConnectionsTable = {
  uuid: string;
  company_uuid: string;
  channel: string;
  /** connected | awaiting_verification | error | disconnected | demo */
  status: string;
  /** JSON object of the provider's ids (not secret). */
  provider_ids: string;
  /** What an inbound webhook names the connection by (Slack team id...). */
  provider_key: string | null;
  /** AES-256-GCM ciphertext of a JSON object (lib/secrets.ts). */
  secrets: string;
  last_error: string | null;
  /** JSON array of what the last test proved (TConnectionProof[], migration 0044); null: untested. */
  proofs: string | null;
  last_tested_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type LearnerChannelIdentitiesTable = {
  uuid: string;
  company_uuid: string;
  learner_uuid: string;
  channel: string;
  address: string;
  provider_user_id: string;
  conversation_id: string | null;
  last_inbound_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
/** A sample lesson an administrator sent to their own account on a channel (0045, issue 29). */
export type ChannelTestLessonsTable = {
  uuid: string;
  company_uuid: string;
  user_uuid: string;
  channel: string;
  address: string;
  language: string;
  status: 'sending' | 'sent' | 'waiting' | 'failed' | 'answered';
  provider_user_id: string | null;
  conversation_id: string | null;
  provider_message_id: string | null;
  pending: string | null;
  failure_code: string | null;
  failure_detail: string | null;
  answer_index: number | null;
  answer_correct: Bool | null;
  answered_at: Timestamp | null;
  feedback_status: 'sent' | 'failed' | null;
  last_inbound_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
/** A Teams user's personal conversation with the app (0027), kept before any learner matches. */
export type TeamsConversationReferencesTable = {
  company_uuid: string;
  provider_user_id: string;
  aad_object_id: string | null;
  email: string | null;
  service_url: string;
  conversation_id: string;
  tenant_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type ChannelInboundMessagesTable = {
  channel: string;
  provider_message_id: string;
  company_uuid: string;
  received_at: Timestamp;
};

/** A message a provider accepted, by its id there (migration 0026): its receipts name only that. */
export type ChannelMessagesTable = {
  channel: string;
  provider_message_id: string;
  company_uuid: string;
  outbox_uuid: string;
  delivery_uuid: string | null;
  course_uuid: string;
  learner_uuid: string;
  /** lesson | reminder | invitation */
  kind: string;
  /** 1: the notice sent outside WhatsApp's window, not the lesson itself. */
  template: number;
  /** Which part of the lesson send it was (0032); null: a notice, or a send of one message. */
  part: number | null;
  created_at: Timestamp;
};
/** A Google Chat user seen in a DM with the app (0032), kept before any learner matches. */
export type GoogleChatUsersTable = {
  company_uuid: string;
  provider_user_id: string;
  email: string;
  space_name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

// Delivery model (issue 5): enrolments, one row per scheduled lesson send, the event log, the
// outbox the channel adapters write to, and produced exports.
export type EnrollmentsTable = {
  uuid: string;
  company_uuid: string;
  course_uuid: string;
  learner_uuid: string;
  /** Channel key the learner is reached on for this course. */
  channel: string;
  /** invited (waiting for the GDPR opt-in) | enrolled | declined | completed | dropped */
  status: string;
  invited_at: Timestamp;
  enrolled_at: Timestamp | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the opt-in invitation was sent (0005); null when none was needed or not yet sent. */
  invitation_sent_at?: Timestamp | null;
  /** Why the last invitation did not go (0025): a delivery failure code, the provider's words. */
  invitation_failure_code?: string | null;
  invitation_failure_detail?: string | null;
  invitation_failed_at?: Timestamp | null;
  /** When a failed invitation is tried again; null after a permanent failure (waits for a Resend). */
  invitation_retry_at?: Timestamp | null;
  invitation_attempts?: number;
  /** Since when the learner gets no lessons (0036): paused (still enrolled), or dropped by STOP. */
  paused_at?: Timestamp | null;
  /** unanswered | trainer | stop (PAUSE_REASONS). */
  pause_reason?: string | null;
  /** The last resume: unanswered lessons sent before it do not count towards a pause. */
  resumed_at?: Timestamp | null;
};
/** A lesson's question that comes back until it sticks (issue 28, 0037). */
export type QuestionRepeatsTable = {
  /** The lesson send whose question repeats. */
  delivery_uuid: string;
  company_uuid: string;
  course_uuid: string;
  learner_uuid: string;
  enrollment_uuid: string;
  /** waiting | sending | sent | stuck | ended */
  status: string;
  /** When the next repeat goes (null once stuck or ended). */
  send_at: Timestamp | null;
  /** The learner's answers to the question, JSON [{ at, right }]. */
  history: string;
  sends: number;
  sent_at: Timestamp | null;
  answer_index: number | null;
  answer_correct: number | null;
  /** pending | sending | sent | failed, as lesson_deliveries.feedback_status. */
  feedback_status: string | null;
  feedback_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type LessonDeliveriesTable = {
  uuid: string;
  company_uuid: string;
  course_uuid: string;
  enrollment_uuid: string;
  learner_uuid: string;
  day: number;
  /** Language short name the lesson is sent in (the learner's locale when the course has it). */
  language: string;
  channel: string;
  scheduled_for: Timestamp;
  /** scheduled | sending (claimed by a scheduler tick) | sent | failed | canceled */
  status: string;
  sent_at: Timestamp | null;
  delivered_at: Timestamp | null;
  read_at: Timestamp | null;
  answered_at: Timestamp | null;
  /** 1 correct, 0 wrong, null not answered (yet). */
  answer_correct: number | null;
  /** Set when no answer arrived within 72 hours of delivery. */
  missed_at: Timestamp | null;
  reminders_sent: number;
  /** When its last reminder went (0036): the next waits the course's hours after it. */
  last_reminder_at?: Timestamp | null;
  /** A confirmation to send the learner (0036): paused | resumed | stopped; null once claimed. */
  notice?: string | null;
  /** The provider's id of the message that carried the lesson (0025). */
  provider_message_id?: string | null;
  /** Why the lesson did not go (0025): a delivery failure code and the provider's own words. */
  failure_code?: string | null;
  failure_detail?: string | null;
  /** A lesson refused for a while is not tried again before this (0025). */
  next_attempt_at?: Timestamp | null;
  /** The answer chosen, by its index among the question's answers (0035). */
  answer_index?: number | null;
  /**
   * The feedback on an answer (0035): pending | repeat (a later answer, told it no longer counts)
   * | sending | sent | failed; null: nothing answered.
   */
  feedback_status?: string | null;
  /** When the feedback was sent (or last tried). */
  feedback_at?: Timestamp | null;
  /** When a repeat of its question was first answered right (0040, the retention insight). */
  repeat_right_at?: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type LearnerEventsTable = {
  uuid: string;
  company_uuid: string;
  course_uuid: string;
  learner_uuid: string;
  delivery_uuid: string | null;
  /**
   * delivered | read | answered | missed | reminder | opted_in | declined; the learner's
   * conversation's (issue 28): feedback | question_closed | question_not_closed | repeat_sent |
   * repeat_answered | repeat_missed | notice | paused | resumed | stopped (docs/delivery.md).
   */
  type: string;
  correct: number | null;
  occurred_at: Timestamp;
  /** JSON with the event's details (answer text, channel message id...). */
  payload: string | null;
  created_at: Timestamp;
};
export type OutboxMessagesTable = {
  uuid: string;
  company_uuid: string | null;
  delivery_uuid: string | null;
  /** lesson | reminder | invitation | email */
  kind: string;
  /** Channel key, or 'email'. */
  channel: string;
  recipient: string;
  subject: string | null;
  /** JSON: the rendered, channel-specific payload. */
  body: string;
  /** pending | sent | failed */
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
};
export type ChannelTokensTable = {
  uuid: string;
  company_uuid: string;
  channel: string;
  token_hash: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
};
export type ExportsTable = {
  uuid: string;
  company_uuid: string;
  user_uuid: string;
  course_uuid: string | null;
  /** statistics | not_enrolled_learners | course */
  type: string;
  type_display_name: string;
  file_name: string;
  content_type: string;
  /** Path under the data dir. */
  file_path: string | null;
  /** pending | ready | failed */
  status: string;
  rows: number;
  created_at: Timestamp;
  completed_at: Timestamp | null;
};

// Background jobs (issue 6): durable, claimed with a lease fenced by `attempts`, resumable from
// `checkpoint` (saved in the same transaction as the rows it covers).
export type JobsTable = {
  uuid: string;
  company_uuid: string;
  user_uuid: string | null;
  /** 'learners_import', … */
  kind: string;
  /** queued | running | completed | failed | canceled */
  status: string;
  total_rows: number;
  processed_rows: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  /** JSON: the kind's resume point, e.g. { row, line, error_bytes } for an import. */
  checkpoint: string | null;
  /** Input file, relative to the data dir. */
  input_path: string | null;
  /** JSON: the kind's options (file name, format, header, target list, dry run…). */
  options: string;
  error_summary: string | null;
  /** Error report file, relative to the data dir. */
  error_report_path: string | null;
  /** Claims so far; the current claimer's fencing token. */
  attempts: number;
  /** Who holds the lease: host, pid and runner id. */
  worker: string | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  heartbeat_at: Timestamp | null;
  /** When the requester was e-mailed the outcome. */
  notified_at: Timestamp | null;
};

/** A personal API token (issue 12): its hash, scopes (JSON array) and life. */
export type ApiTokensTable = {
  uuid: string;
  user_uuid: string;
  name: string;
  token_hash: string;
  hint: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};
