import { randomUUID } from 'node:crypto';

import type { Kysely } from 'kysely';

import type { Database } from '../types.ts';

// Server-side texts served by GET /api/v1/translations, in every interface language.
// The upgrade modal looks up `upgrade.<text key>.{title,description}`, where the text key is the
// 402 message keyed by spec §6 ("Learners limit reached." → learners_limit_reached), and falls
// back to `upgrade.generic.*`. Keys are literals so that this migration never changes after it ran.

type Texts = { en: string; it: string; de: string };

export const TRANSLATIONS: Record<string, Texts> = {
  'upgrade.generic.title': {
    en: 'Upgrade your plan',
    it: 'Passa a un piano superiore',
    de: 'Tarif upgraden',
  },
  'upgrade.generic.description': {
    en: 'You have reached a limit of your current plan. Send an upgrade request and we will contact you to find the plan that fits your team.',
    it: 'Hai raggiunto un limite del tuo piano attuale. Invia una richiesta di upgrade e ti contatteremo per trovare il piano più adatto al tuo team.',
    de: 'Sie haben ein Limit Ihres aktuellen Tarifs erreicht. Senden Sie eine Upgrade-Anfrage, und wir melden uns bei Ihnen, um den passenden Tarif für Ihr Team zu finden.',
  },
  'upgrade.thank_you.title': {
    en: 'Thank you!',
    it: 'Grazie!',
    de: 'Vielen Dank!',
  },
  'upgrade.thank_you.description': {
    en: 'We have received your upgrade request. Our team will contact you shortly.',
    it: 'Abbiamo ricevuto la tua richiesta di upgrade. Il nostro team ti contatterà a breve.',
    de: 'Wir haben Ihre Upgrade-Anfrage erhalten. Unser Team meldet sich in Kürze bei Ihnen.',
  },
  'upgrade.distribution_channels_limit_reached.title': {
    en: 'Distribution channels limit reached',
    it: 'Limite di canali di distribuzione raggiunto',
    de: 'Limit für Verteilungskanäle erreicht',
  },
  'upgrade.distribution_channels_limit_reached.description': {
    en: 'Your plan lets you deliver courses on a limited number of chat channels. Upgrade to reach your learners on every channel they use.',
    it: 'Il tuo piano consente di erogare i corsi su un numero limitato di canali di chat. Passa a un piano superiore per raggiungere i tuoi discenti su tutti i canali che usano.',
    de: 'Ihr Tarif erlaubt die Bereitstellung von Kursen nur über eine begrenzte Anzahl von Chat-Kanälen. Mit einem Upgrade erreichen Sie Ihre Lernenden auf allen Kanälen, die sie nutzen.',
  },
  'upgrade.creator_seats_limit_reached.title': {
    en: 'Creator seats limit reached',
    it: 'Limite di postazioni per creatori raggiunto',
    de: 'Limit für Ersteller-Plätze erreicht',
  },
  'upgrade.creator_seats_limit_reached.description': {
    en: 'All content creator seats of your plan are taken. Upgrade to invite more colleagues to build courses with you.',
    it: 'Tutte le postazioni per creatori di contenuti del tuo piano sono occupate. Passa a un piano superiore per invitare altri colleghi a creare corsi con te.',
    de: 'Alle Plätze für Content-Ersteller in Ihrem Tarif sind belegt. Mit einem Upgrade können Sie weitere Kolleginnen und Kollegen zur Kurserstellung einladen.',
  },
  'upgrade.lessons_limit_reached.title': {
    en: 'Lessons limit reached',
    it: 'Limite di lezioni raggiunto',
    de: 'Lektionslimit erreicht',
  },
  'upgrade.lessons_limit_reached.description': {
    en: 'You have created all the lessons your plan allows this month. Upgrade to keep creating lessons without waiting for next month.',
    it: 'Hai creato tutte le lezioni che il tuo piano consente per questo mese. Passa a un piano superiore per continuare a creare lezioni senza attendere il mese prossimo.',
    de: 'Sie haben in diesem Monat alle Lektionen erstellt, die Ihr Tarif erlaubt. Mit einem Upgrade erstellen Sie weitere Lektionen, ohne auf den nächsten Monat zu warten.',
  },
  'upgrade.learners_limit_reached.title': {
    en: 'Learners limit reached',
    it: 'Limite di discenti raggiunto',
    de: 'Limit für Lernende erreicht',
  },
  'upgrade.learners_limit_reached.description': {
    en: 'Your plan covers a limited number of learners. Upgrade to add more learners and grow your audience.',
    it: 'Il tuo piano include un numero limitato di discenti. Passa a un piano superiore per aggiungere altri discenti e ampliare il tuo pubblico.',
    de: 'Ihr Tarif umfasst eine begrenzte Anzahl von Lernenden. Mit einem Upgrade fügen Sie weitere Lernende hinzu und vergrößern Ihre Zielgruppe.',
  },
  'upgrade.learner_portal_limit_reached.title': {
    en: 'Learner portal limit reached',
    it: 'Limite del portale discenti raggiunto',
    de: 'Limit für das Lernendenportal erreicht',
  },
  'upgrade.learner_portal_limit_reached.description': {
    en: 'The learner portal is not part of your plan. Upgrade to give your learners a portal where they can follow their courses.',
    it: 'Il portale discenti non è incluso nel tuo piano. Passa a un piano superiore per offrire ai tuoi discenti un portale da cui seguire i loro corsi.',
    de: 'Das Lernendenportal ist in Ihrem Tarif nicht enthalten. Mit einem Upgrade bieten Sie Ihren Lernenden ein Portal, in dem sie ihre Kurse verfolgen können.',
  },
  'upgrade.ai_transformer_limit_reached.title': {
    en: 'AI transformer limit reached',
    it: 'Limite del trasformatore IA raggiunto',
    de: 'Limit für den KI-Transformer erreicht',
  },
  'upgrade.ai_transformer_limit_reached.description': {
    en: 'You have used all the AI course conversions your plan allows this month. Upgrade to turn more documents, videos and audio files into courses.',
    it: "Hai usato tutte le conversioni di corsi con l'IA che il tuo piano consente per questo mese. Passa a un piano superiore per trasformare in corsi altri documenti, video e file audio.",
    de: 'Sie haben alle KI-Kursumwandlungen genutzt, die Ihr Tarif in diesem Monat erlaubt. Mit einem Upgrade wandeln Sie weitere Dokumente, Videos und Audiodateien in Kurse um.',
  },
  'upgrade.ai_translator_limit_reached.title': {
    en: 'AI translator limit reached',
    it: 'Limite del traduttore IA raggiunto',
    de: 'Limit für den KI-Übersetzer erreicht',
  },
  'upgrade.ai_translator_limit_reached.description': {
    en: "You have used all the AI translations your plan allows this month. Upgrade to translate more courses into your learners' languages.",
    it: "Hai usato tutte le traduzioni con l'IA che il tuo piano consente per questo mese. Passa a un piano superiore per tradurre altri corsi nelle lingue dei tuoi discenti.",
    de: 'Sie haben alle KI-Übersetzungen genutzt, die Ihr Tarif in diesem Monat erlaubt. Mit einem Upgrade übersetzen Sie weitere Kurse in die Sprachen Ihrer Lernenden.',
  },
  'upgrade.exclusion_days_limit_reached.title': {
    en: 'Exclusion days limit reached',
    it: 'Limite dei giorni di esclusione raggiunto',
    de: 'Limit für Ausschlusstage erreicht',
  },
  'upgrade.exclusion_days_limit_reached.description': {
    en: 'Skipping weekends in a delivery schedule is not part of your plan. Upgrade to pause lessons on Saturdays and Sundays.',
    it: "L'esclusione dei fine settimana dal calendario di erogazione non è inclusa nel tuo piano. Passa a un piano superiore per sospendere le lezioni il sabato e la domenica.",
    de: 'Das Überspringen von Wochenenden im Versandplan ist in Ihrem Tarif nicht enthalten. Mit einem Upgrade setzen Sie Lektionen an Samstagen und Sonntagen aus.',
  },
  'plans.free.name': { en: 'Free', it: 'Gratuito', de: 'Kostenlos' },
  'plans.free.description': {
    en: 'To try the platform: 1 creator seat, up to 6 learners, 10 lessons a month, one distribution channel, and one course converted or translated by AI each month.',
    it: "Per provare la piattaforma: 1 postazione per creatori, fino a 6 discenti, 10 lezioni al mese, un canale di distribuzione e un corso convertito o tradotto con l'IA ogni mese.",
    de: 'Zum Ausprobieren der Plattform: 1 Ersteller-Platz, bis zu 6 Lernende, 10 Lektionen pro Monat, ein Verteilungskanal sowie ein per KI umgewandelter oder übersetzter Kurs pro Monat.',
  },
  'plans.business.name': { en: 'Business', it: 'Business', de: 'Business' },
  'plans.business.description': {
    en: 'For growing teams: 10 creator seats, up to 1,000 learners, unlimited lessons and channels, the learner portal, weekend skipping, 20 AI course conversions a month and unlimited AI translations.',
    it: "Per i team in crescita: 10 postazioni per creatori, fino a 1.000 discenti, lezioni e canali illimitati, il portale discenti, l'esclusione dei fine settimana, 20 conversioni di corsi con l'IA al mese e traduzioni con l'IA illimitate.",
    de: 'Für wachsende Teams: 10 Ersteller-Plätze, bis zu 1.000 Lernende, unbegrenzte Lektionen und Kanäle, das Lernendenportal, das Überspringen von Wochenenden, 20 KI-Kursumwandlungen pro Monat und unbegrenzte KI-Übersetzungen.',
  },
  'plans.enterprise.name': { en: 'Enterprise', it: 'Enterprise', de: 'Enterprise' },
  'plans.enterprise.description': {
    en: 'For whole organisations: every function without limits, for any number of creators and learners.',
    it: 'Per intere organizzazioni: tutte le funzioni senza limiti, per un numero qualsiasi di creatori e discenti.',
    de: 'Für ganze Organisationen: alle Funktionen ohne Einschränkungen, für beliebig viele Ersteller und Lernende.',
  },
  'subscription_functions.distribution-channels': {
    en: 'Distribution channels',
    it: 'Canali di distribuzione',
    de: 'Verteilungskanäle',
  },
  'subscription_functions.creator-seats': {
    en: 'Creator seats',
    it: 'Postazioni per creatori',
    de: 'Ersteller-Plätze',
  },
  'subscription_functions.lessons': { en: 'Lessons', it: 'Lezioni', de: 'Lektionen' },
  'subscription_functions.learners': { en: 'Learners', it: 'Discenti', de: 'Lernende' },
  'subscription_functions.learner-portal': {
    en: 'Learner portal',
    it: 'Portale discenti',
    de: 'Lernendenportal',
  },
  'subscription_functions.a-i-transformer': {
    en: 'AI transformer',
    it: 'Trasformatore IA',
    de: 'KI-Transformer',
  },
  'subscription_functions.a-i-translator': {
    en: 'AI translator',
    it: 'Traduttore IA',
    de: 'KI-Übersetzer',
  },
  'subscription_functions.exclusion-days': {
    en: 'Exclusion days (skip weekends)',
    it: 'Giorni di esclusione (salta i fine settimana)',
    de: 'Ausschlusstage (Wochenenden überspringen)',
  },
};

const LOCALES = ['en', 'it', 'de'] as const;

export const up = async (untyped: Kysely<unknown>): Promise<void> => {
  const db = untyped as Kysely<Database>;
  await db
    .insertInto('translations')
    .values(
      Object.entries(TRANSLATIONS).flatMap(([key, texts]) =>
        LOCALES.map((locale) => ({ uuid: randomUUID(), locale, key, value: texts[locale] })),
      ),
    )
    .execute();
};

export const down = async (untyped: Kysely<unknown>): Promise<void> => {
  const db = untyped as Kysely<Database>;
  await db.deleteFrom('translations').where('key', 'in', Object.keys(TRANSLATIONS)).execute();
};
