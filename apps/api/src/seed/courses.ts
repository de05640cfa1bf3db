// The demo courses: short micro-learning lessons, one a day, in English and (for most) Italian.
// Every text stays inside the spec §5 limits so each course passes the publish check.

import type { TAssessmentType, TChannelKey, TCourseStatus, TExclusionDay } from '@ccp/schemas';

export type DemoAnswer = readonly [text: string, response: string];

export type DemoLessonText = {
  title: string;
  intro: string;
  /** Simple HTML. */
  content: string;
  question: string;
  /** Same order in every language; `correct` indexes into it. */
  answers: readonly DemoAnswer[];
};

export type DemoLesson = {
  minutes: number;
  type: TAssessmentType;
  /** Index of the correct answer; none for open answers. */
  correct?: number;
  mandatory: boolean;
  media?: { type: 'link'; url: string };
  en: DemoLessonText;
  it?: DemoLessonText;
};

export type DemoCourse = {
  name: string;
  description: string;
  category: string;
  classroom: 'sales' | 'onboarding' | 'free';
  status: TCourseStatus;
  /** Archived this many days before now. */
  archivedDaysAgo?: number;
  /** Delivery start relative to now, in days (negative: in the past). */
  startInDays?: number;
  channels: TChannelKey[];
  lists: string[];
  exclusionDays?: TExclusionDay[];
  time?: string;
  /** "Repeat questions until they stick" (issue 28). */
  repeatQuestions?: boolean;
  lessons: DemoLesson[];
};

export const THANK_YOU = {
  en: [
    'Thanks for your answer! See you tomorrow.',
    'Great, your answer is saved. Keep going!',
    'Thank you! Your next lesson arrives tomorrow.',
  ],
  it: [
    'Grazie per la risposta! A domani.',
    'Ottimo, la tua risposta è stata salvata. Continua così!',
    'Grazie! La prossima lezione arriva domani.',
  ],
  lastEn: 'Thanks! You have completed the course. Well done!',
  lastIt: 'Grazie! Hai completato il corso. Ottimo lavoro!',
} as const;

const trueFalse = (
  language: 'en' | 'it',
  trueResponse: string,
  falseResponse: string,
): DemoAnswer[] => [
  [language === 'en' ? 'True' : 'Vero', trueResponse],
  [language === 'en' ? 'False' : 'Falso', falseResponse],
];

export const DEMO_COURSES: DemoCourse[] = [
  {
    name: 'Negotiation Basics',
    description:
      'Five short lessons on preparing, anchoring and trading concessions, so every deal closes on terms you can defend.',
    category: 'Sales',
    classroom: 'sales',
    status: 'active',
    startInDays: -2,
    channels: ['ms-teams', 'whatsapp'],
    lists: ['Sales EMEA', 'Sales Italy'],
    exclusionDays: ['saturday', 'sunday'],
    repeatQuestions: true,
    lessons: [
      {
        minutes: 4,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Prepare before you negotiate',
          intro:
            'Most negotiations are won before the meeting starts. Today you will learn to define your walk-away point.',
          content:
            '<p>Before any negotiation, write down three things:</p><ul><li><strong>Your goal</strong>: the result you want.</li><li><strong>Your limit</strong>: the point where you stop.</li><li><strong>Your BATNA</strong>: what you will do if there is no deal.</li></ul><p>A strong BATNA gives you the confidence to say no.</p>',
          question: 'What does BATNA stand for?',
          answers: [
            [
              'Best Alternative To a Negotiated Agreement',
              'Correct! Knowing your alternative tells you when to walk away.',
            ],
            [
              'Basic Agreement To Negotiate Again',
              'Not quite. BATNA is your best alternative if the talks fail.',
            ],
            [
              'Best Available Terms and Net Amount',
              'Not quite. BATNA is about your alternative, not the price.',
            ],
          ],
        },
        it: {
          title: 'Prepararsi prima di negoziare',
          intro:
            'La maggior parte delle trattative si vince prima dell’incontro. Oggi imparerai a definire il tuo punto di uscita.',
          content:
            '<p>Prima di ogni trattativa, annota tre cose:</p><ul><li><strong>Il tuo obiettivo</strong>: il risultato che vuoi.</li><li><strong>Il tuo limite</strong>: il punto in cui ti fermi.</li><li><strong>La tua BATNA</strong>: cosa farai se non c’è accordo.</li></ul><p>Una BATNA solida ti dà la sicurezza di dire di no.</p>',
          question: 'Che cosa significa BATNA?',
          answers: [
            [
              'La migliore alternativa a un accordo negoziato',
              'Esatto! Conoscere la tua alternativa ti dice quando andartene.',
            ],
            [
              'Un accordo di base per negoziare di nuovo',
              'Non proprio. La BATNA è la tua alternativa migliore se la trattativa fallisce.',
            ],
            [
              'Le migliori condizioni disponibili e l’importo netto',
              'Non proprio. La BATNA riguarda la tua alternativa, non il prezzo.',
            ],
          ],
        },
      },
      {
        minutes: 3,
        type: 'true_false',
        correct: 0,
        mandatory: true,
        media: { type: 'link', url: 'https://videos.acme.example/negotiation/anchoring.mp4' },
        en: {
          title: 'The power of the first offer',
          intro:
            'The first number on the table shapes everything that follows. This effect is called anchoring.',
          content:
            '<p>When you make the first offer, the other side adjusts <em>from your number</em>. Use it:</p><ul><li>Open ambitiously but credibly.</li><li>Give a reason for your number.</li><li>If they anchor first, do not react to it: restate your own terms.</li></ul>',
          question: 'Making the first offer can anchor the whole negotiation.',
          answers: trueFalse(
            'en',
            'Right! The first number becomes the reference point for both sides.',
            'Actually it is true: the first number becomes the reference point.',
          ),
        },
        it: {
          title: 'La forza della prima offerta',
          intro:
            'Il primo numero sul tavolo condiziona tutto quello che segue. Questo effetto si chiama ancoraggio.',
          content:
            '<p>Quando fai tu la prima offerta, l’altra parte si regola <em>a partire dal tuo numero</em>. Sfruttalo:</p><ul><li>Apri in modo ambizioso ma credibile.</li><li>Motiva il tuo numero.</li><li>Se l’altro ancora per primo, non reagire: ribadisci le tue condizioni.</li></ul>',
          question: 'Fare la prima offerta può ancorare l’intera trattativa.',
          answers: trueFalse(
            'it',
            'Giusto! Il primo numero diventa il punto di riferimento per entrambe le parti.',
            'In realtà è vero: il primo numero diventa il punto di riferimento.',
          ),
        },
      },
      {
        minutes: 5,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Trade, never just concede',
          intro:
            'Every concession should buy you something. Giving value away for free teaches the other side to ask for more.',
          content:
            '<p>Use the phrase <strong>“If you…, then we…”</strong>:</p><ul><li>“If you sign for two years, then we can lower the monthly fee.”</li><li>“If you pay upfront, then we can include onboarding.”</li></ul><p>Concede slowly and in shrinking steps.</p>',
          question: 'A buyer asks for a 10% discount. What is the best first move?',
          answers: [
            [
              'Ask what they can offer in return',
              'Yes! Trading keeps the value of your offer intact.',
            ],
            [
              'Agree, to keep the deal moving',
              'A free discount teaches the buyer to ask for more. Trade instead.',
            ],
            [
              'Refuse and end the call',
              'Too early to walk away. Explore what they can give in return.',
            ],
            [
              'Offer 15% to build goodwill',
              'Giving more than asked lowers your price with nothing in return.',
            ],
          ],
        },
        it: {
          title: 'Scambia, non concedere e basta',
          intro:
            'Ogni concessione deve farti ottenere qualcosa. Regalare valore insegna all’altra parte a chiedere di più.',
          content:
            '<p>Usa la formula <strong>«Se voi…, allora noi…»</strong>:</p><ul><li>«Se firmate per due anni, allora possiamo ridurre il canone mensile.»</li><li>«Se pagate in anticipo, allora includiamo l’avviamento.»</li></ul><p>Concedi lentamente e a passi sempre più piccoli.</p>',
          question: 'Un cliente chiede uno sconto del 10%. Qual è la prima mossa migliore?',
          answers: [
            [
              'Chiedere che cosa può offrire in cambio',
              'Sì! Lo scambio mantiene intatto il valore della tua offerta.',
            ],
            [
              'Accettare, per non bloccare la trattativa',
              'Uno sconto gratuito insegna al cliente a chiedere di più. Meglio uno scambio.',
            ],
            [
              'Rifiutare e chiudere la chiamata',
              'È presto per andarsene. Scopri che cosa può darti in cambio.',
            ],
            [
              'Offrire il 15% per creare fiducia',
              'Dare più di quanto richiesto abbassa il prezzo senza ottenere nulla.',
            ],
          ],
        },
      },
      {
        minutes: 6,
        type: 'open_answer',
        mandatory: false,
        en: {
          title: 'Listen for interests, not positions',
          intro:
            'A position is what someone asks for; an interest is why they ask for it. Deals are built on interests.',
          content:
            '<p>“We need delivery by March” is a position. The interest may be a product launch or a budget deadline.</p><p>Ask <strong>why</strong> and <strong>what if</strong> questions:</p><ul><li>“What happens if delivery is in April?”</li><li>“What makes March important?”</li></ul>',
          question: 'Think of your last negotiation: what was the other side’s real interest?',
          answers: [],
        },
        it: {
          title: 'Ascolta gli interessi, non le posizioni',
          intro:
            'Una posizione è ciò che qualcuno chiede; un interesse è il motivo per cui lo chiede. Gli accordi si costruiscono sugli interessi.',
          content:
            '<p>«Ci serve la consegna entro marzo» è una posizione. L’interesse può essere il lancio di un prodotto o una scadenza di budget.</p><p>Fai domande sul <strong>perché</strong> e sul <strong>cosa succede se</strong>:</p><ul><li>«Cosa succede se la consegna è ad aprile?»</li><li>«Perché marzo è così importante?»</li></ul>',
          question:
            'Pensa alla tua ultima trattativa: qual era il vero interesse dell’altra parte?',
          answers: [],
        },
      },
      {
        minutes: 3,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Close the agreement cleanly',
          intro:
            'An agreement is only as good as everyone’s memory of it. Finish every negotiation with a clear summary.',
          content:
            '<p>Right after you reach agreement:</p><ol><li>Summarise price, scope and dates out loud.</li><li>Confirm who does what next.</li><li>Send a written recap the same day.</li></ol><p>This avoids surprises when the contract arrives.</p>',
          question: 'What should you do right after reaching agreement?',
          answers: [
            ['Summarise the terms in writing', 'Exactly. A written recap protects both sides.'],
            [
              'Wait for the client to send an email',
              'Take the lead: your own summary avoids misunderstandings.',
            ],
            [
              'Reopen the price to test the deal',
              'Reopening a closed point damages trust. Confirm and move on.',
            ],
          ],
        },
        it: {
          title: 'Chiudi l’accordo in modo chiaro',
          intro:
            'Un accordo vale quanto il ricordo che ne hanno tutti. Concludi ogni trattativa con un riepilogo chiaro.',
          content:
            '<p>Subito dopo aver raggiunto l’accordo:</p><ol><li>Riassumi a voce prezzo, perimetro e date.</li><li>Conferma chi fa cosa e quando.</li><li>Invia un riepilogo scritto in giornata.</li></ol><p>Così eviti sorprese quando arriva il contratto.</p>',
          question: 'Che cosa dovresti fare subito dopo aver raggiunto un accordo?',
          answers: [
            [
              'Riassumere le condizioni per iscritto',
              'Esatto. Un riepilogo scritto tutela entrambe le parti.',
            ],
            [
              'Aspettare che il cliente mandi un’email',
              'Prendi l’iniziativa: il tuo riepilogo evita malintesi.',
            ],
            [
              'Riaprire il prezzo per mettere alla prova l’accordo',
              'Riaprire un punto chiuso danneggia la fiducia. Conferma e vai avanti.',
            ],
          ],
        },
      },
    ],
  },
  {
    name: 'Objection Handling',
    description:
      'Turn “no” into a conversation: four lessons on listening, exploring and answering the objections you hear every week.',
    category: 'Sales',
    classroom: 'sales',
    status: 'scheduled',
    startInDays: 12,
    channels: ['slack'],
    lists: ['Sales Italy'],
    time: '09:30',
    lessons: [
      {
        minutes: 3,
        type: 'true_false',
        correct: 1,
        mandatory: true,
        en: {
          title: 'Why objections are good news',
          intro:
            'A buyer who objects is still engaged. Silence is the real danger; an objection is an invitation to talk.',
          content:
            '<p>Objections usually mean one of three things:</p><ul><li>The buyer does not yet see enough value.</li><li>Something is unclear.</li><li>There is a real constraint you need to know about.</li></ul><p>Each one tells you what to do next.</p>',
          question: 'An objection usually means the buyer has lost interest.',
          answers: trueFalse(
            'en',
            'Not really: an objecting buyer is still engaged and talking to you.',
            'Correct! An objection shows the buyer is still engaged.',
          ),
        },
        it: {
          title: 'Perché le obiezioni sono una buona notizia',
          intro:
            'Un cliente che obietta è ancora coinvolto. Il vero pericolo è il silenzio; un’obiezione è un invito a parlare.',
          content:
            '<p>Di solito un’obiezione significa una di queste tre cose:</p><ul><li>Il cliente non vede ancora abbastanza valore.</li><li>Qualcosa non è chiaro.</li><li>C’è un vincolo reale che devi conoscere.</li></ul><p>Ognuna ti dice che cosa fare dopo.</p>',
          question: 'Un’obiezione di solito significa che il cliente ha perso interesse.',
          answers: trueFalse(
            'it',
            'Non proprio: un cliente che obietta è ancora coinvolto e ti sta parlando.',
            'Corretto! Un’obiezione dimostra che il cliente è ancora interessato.',
          ),
        },
      },
      {
        minutes: 5,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'The LAER model',
          intro:
            'LAER gives you four steps to answer any objection calmly: Listen, Acknowledge, Explore, Respond.',
          content:
            '<ol><li><strong>Listen</strong> without interrupting.</li><li><strong>Acknowledge</strong> the concern: “I understand why that matters.”</li><li><strong>Explore</strong> with a question to find the real issue.</li><li><strong>Respond</strong> only once you know what to answer.</li></ol>',
          question: 'In the LAER model, what comes right after Acknowledge?',
          answers: [
            ['Explore', 'Right! Ask a question before you answer.'],
            ['Respond', 'Not yet: explore first, so your answer fits the real issue.'],
            ['Listen', 'Listening comes first. After acknowledging, you explore.'],
            ['Repeat', 'Repeat is not part of LAER. The next step is Explore.'],
          ],
        },
        it: {
          title: 'Il modello LAER',
          intro:
            'LAER ti offre quattro passi per rispondere con calma a qualsiasi obiezione: ascoltare, riconoscere, esplorare, rispondere.',
          content:
            '<ol><li><strong>Ascolta</strong> senza interrompere.</li><li><strong>Riconosci</strong> la preoccupazione: «Capisco perché è importante.»</li><li><strong>Esplora</strong> con una domanda per trovare il vero problema.</li><li><strong>Rispondi</strong> solo quando sai che cosa rispondere.</li></ol>',
          question: 'Nel modello LAER, che cosa viene subito dopo «riconoscere»?',
          answers: [
            ['Esplorare', 'Giusto! Fai una domanda prima di rispondere.'],
            ['Rispondere', 'Non ancora: prima esplora, così la risposta centra il vero problema.'],
            ['Ascoltare', 'L’ascolto viene per primo. Dopo aver riconosciuto, si esplora.'],
            ['Ripetere', 'Ripetere non fa parte di LAER. Il passo successivo è esplorare.'],
          ],
        },
      },
      {
        minutes: 4,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: '“It’s too expensive”',
          intro:
            'The price objection is the most common of all. It rarely means the number itself; it means the value is not clear yet.',
          content:
            '<p>Do not jump to a discount. First find the comparison the buyer is making:</p><ul><li>A competitor’s offer?</li><li>Last year’s budget?</li><li>Doing nothing at all?</li></ul><p>Then show the cost of the problem next to the price of the solution.</p>',
          question: 'A prospect says “It’s too expensive.” What is a good first reply?',
          answers: [
            [
              '“Too expensive compared to what?”',
              'Yes! Find the comparison before you defend the price.',
            ],
            [
              '“I can give you a discount right away.”',
              'A quick discount suggests the price was never real.',
            ],
            [
              '“Our prices are fixed, sorry.”',
              'This closes the conversation. Explore the objection first.',
            ],
          ],
        },
        it: {
          title: '«Costa troppo»',
          intro:
            'L’obiezione sul prezzo è la più frequente. Raramente riguarda il numero in sé: significa che il valore non è ancora chiaro.',
          content:
            '<p>Non passare subito allo sconto. Prima scopri con che cosa il cliente sta facendo il confronto:</p><ul><li>L’offerta di un concorrente?</li><li>Il budget dell’anno scorso?</li><li>Il non fare nulla?</li></ul><p>Poi metti il costo del problema accanto al prezzo della soluzione.</p>',
          question: 'Un potenziale cliente dice: «Costa troppo». Qual è una buona prima risposta?',
          answers: [
            [
              '«Troppo rispetto a che cosa?»',
              'Sì! Trova il termine di paragone prima di difendere il prezzo.',
            ],
            [
              '«Posso farle subito uno sconto.»',
              'Uno sconto immediato fa pensare che il prezzo non fosse reale.',
            ],
            [
              '«I nostri prezzi sono fissi, mi spiace.»',
              'Così chiudi la conversazione. Prima esplora l’obiezione.',
            ],
          ],
        },
      },
      {
        minutes: 7,
        type: 'open_answer',
        mandatory: false,
        en: {
          title: 'Practise with a colleague',
          intro:
            'Objection handling is a skill, and skills need practice. Ten minutes of role play beats an hour of reading.',
          content:
            '<p>Pair up with a colleague this week:</p><ol><li>Write down the three objections you hear most.</li><li>Take turns as buyer and seller.</li><li>Use LAER and give each other one piece of feedback.</li></ol>',
          question: 'Write the objection you hear most often and your best answer to it.',
          answers: [],
        },
        it: {
          title: 'Esercitati con un collega',
          intro:
            'Gestire le obiezioni è un’abilità, e le abilità richiedono pratica. Dieci minuti di role play valgono più di un’ora di lettura.',
          content:
            '<p>Questa settimana lavora in coppia con un collega:</p><ol><li>Scrivi le tre obiezioni che senti più spesso.</li><li>Fate a turno il cliente e il venditore.</li><li>Usate LAER e datevi un consiglio a vicenda.</li></ol>',
          question: 'Scrivi l’obiezione che senti più spesso e la tua risposta migliore.',
          answers: [],
        },
      },
    ],
  },
  {
    name: 'GDPR for Sales',
    description:
      'What sales teams must know about personal data: what it is, when you may use it for prospecting and how to answer requests.',
    category: 'Compliance',
    classroom: 'sales',
    status: 'delivered',
    startInDays: -40,
    channels: ['ms-teams'],
    lists: ['Sales EMEA', 'Customer Success'],
    repeatQuestions: true,
    lessons: [
      {
        minutes: 4,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'What counts as personal data',
          intro:
            'Personal data is any information about an identifiable person. In sales, that is most of what sits in the CRM.',
          content:
            '<p>Personal data includes:</p><ul><li>Names, work emails and phone numbers.</li><li>Notes from calls about a named contact.</li><li>Online identifiers such as cookies linked to a person.</li></ul><p>Company figures alone are <em>not</em> personal data.</p>',
          question: 'Which of these is personal data?',
          answers: [
            [
              'A prospect’s work email address',
              'Correct: it identifies a person, even if it is a work address.',
            ],
            [
              'The annual revenue of a listed company',
              'No: company figures are not about an individual.',
            ],
            ['The population of a country', 'No: statistics do not identify anyone.'],
          ],
        },
        it: {
          title: 'Che cosa sono i dati personali',
          intro:
            'Un dato personale è qualsiasi informazione su una persona identificabile. Nelle vendite è quasi tutto ciò che c’è nel CRM.',
          content:
            '<p>Sono dati personali:</p><ul><li>Nomi, email di lavoro e numeri di telefono.</li><li>Le note delle chiamate su un contatto con nome.</li><li>Identificativi online, come i cookie collegati a una persona.</li></ul><p>I soli dati aziendali <em>non</em> sono dati personali.</p>',
          question: 'Quale di questi è un dato personale?',
          answers: [
            [
              'L’indirizzo email di lavoro di un contatto',
              'Corretto: identifica una persona, anche se è un indirizzo di lavoro.',
            ],
            [
              'Il fatturato annuo di una società quotata',
              'No: i dati aziendali non riguardano un individuo.',
            ],
            ['La popolazione di un paese', 'No: le statistiche non identificano nessuno.'],
          ],
        },
      },
      {
        minutes: 5,
        type: 'true_false',
        correct: 1,
        mandatory: true,
        en: {
          title: 'A lawful basis for prospecting',
          intro:
            'GDPR does not forbid prospecting. It asks you to have a lawful basis and to respect the person’s choices.',
          content:
            '<p>For business contacts, <strong>legitimate interest</strong> is often the basis, as long as:</p><ul><li>the message is relevant to the person’s role;</li><li>you say who you are and where you got the data;</li><li>every email offers a simple way to opt out.</li></ul><p>Local e-marketing rules may add requirements.</p>',
          question: 'Under GDPR you always need consent before emailing a business contact.',
          answers: trueFalse(
            'en',
            'Not always: legitimate interest can apply to relevant business messages.',
            'Correct! Legitimate interest can be the basis, with an easy opt-out.',
          ),
        },
        it: {
          title: 'Una base giuridica per la prospezione',
          intro:
            'Il GDPR non vieta di contattare nuovi clienti. Chiede di avere una base giuridica e di rispettare le scelte della persona.',
          content:
            '<p>Per i contatti aziendali la base è spesso il <strong>legittimo interesse</strong>, purché:</p><ul><li>il messaggio sia pertinente al ruolo della persona;</li><li>tu dica chi sei e dove hai preso i dati;</li><li>ogni email offra un modo semplice per disiscriversi.</li></ul><p>Le norme locali sul marketing possono aggiungere requisiti.</p>',
          question:
            'Con il GDPR serve sempre il consenso prima di scrivere a un contatto aziendale.',
          answers: trueFalse(
            'it',
            'Non sempre: il legittimo interesse può valere per messaggi pertinenti.',
            'Corretto! La base può essere il legittimo interesse, con una disiscrizione semplice.',
          ),
        },
      },
      {
        minutes: 3,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Answering a data request',
          intro:
            'Anyone can ask what data you hold about them. Knowing the process keeps you calm and compliant.',
          content:
            '<p>If a contact asks for their data or asks you to delete it:</p><ol><li>Do not argue or ask why.</li><li>Forward the request to <strong>privacy@acme.example</strong> the same day.</li><li>Stop any campaign to that contact until privacy replies.</li></ol>',
          question: 'How long does a company have to answer a data access request?',
          answers: [
            ['One month', 'Correct: one month, extendable only in complex cases.'],
            ['One week', 'Shorter than the law requires, but do forward it at once.'],
            ['Six months', 'Far too long: the limit is one month.'],
          ],
        },
        it: {
          title: 'Rispondere a una richiesta sui dati',
          intro:
            'Chiunque può chiedere quali dati conservi su di lui. Conoscere la procedura ti permette di restare calmo e in regola.',
          content:
            '<p>Se un contatto chiede i suoi dati o ne chiede la cancellazione:</p><ol><li>Non discutere e non chiedere il motivo.</li><li>Inoltra la richiesta a <strong>privacy@acme.example</strong> in giornata.</li><li>Sospendi ogni campagna verso quel contatto finché privacy non risponde.</li></ol>',
          question: 'Quanto tempo ha un’azienda per rispondere a una richiesta di accesso ai dati?',
          answers: [
            ['Un mese', 'Corretto: un mese, prorogabile solo nei casi complessi.'],
            ['Una settimana', 'Meno di quanto chiede la legge, ma inoltrala comunque subito.'],
            ['Sei mesi', 'Decisamente troppo: il limite è un mese.'],
          ],
        },
      },
    ],
  },
  {
    name: 'Cold Calling 101',
    description:
      'Get past the first thirty seconds: research fast, open with a reason and always leave the call with a next step.',
    category: 'Sales',
    classroom: 'sales',
    status: 'draft',
    channels: [],
    lists: [],
    lessons: [
      {
        minutes: 4,
        type: 'multiple_choice',
        correct: 1,
        mandatory: true,
        en: {
          title: 'Research in five minutes',
          intro: 'You do not need an hour of research per call. Five focused minutes are enough.',
          content:
            '<p>Before dialling, check:</p><ul><li>The person’s role and how long they have held it.</li><li>One recent company event: a launch, a hire, a result.</li><li>One reason your call could matter to them now.</li></ul>',
          question: 'What is the most useful thing to find before a cold call?',
          answers: [
            [
              'The company’s full history',
              'Too broad for a five-minute check. Look for a reason to call now.',
            ],
            [
              'A recent event that gives you a reason to call',
              'Yes! A timely reason makes the opening relevant.',
            ],
            [
              'The names of all their suppliers',
              'Hard to find and rarely needed for the first call.',
            ],
          ],
        },
      },
      {
        minutes: 3,
        type: 'true_false',
        correct: 0,
        mandatory: true,
        en: {
          title: 'The first thirty seconds',
          intro:
            'People decide very quickly whether to stay on a call. Your opening must earn time.',
          content:
            '<p>A good opening has three parts:</p><ol><li>Who you are, in one sentence.</li><li>Why you are calling <em>them</em>, today.</li><li>A permission question: “Do you have two minutes?”</li></ol>',
          question: 'Asking for permission to continue makes prospects more willing to listen.',
          answers: trueFalse(
            'en',
            'Correct! Asking for two minutes lowers resistance.',
            'It is true: a permission question lowers resistance.',
          ),
        },
      },
      {
        minutes: 5,
        type: 'open_answer',
        mandatory: false,
        en: {
          title: 'Always book the next step',
          intro:
            'A good call ends with a date in both calendars, not with “I will send you something”.',
          content:
            '<p>Before hanging up, propose a concrete next step:</p><ul><li>A 20-minute discovery call.</li><li>A demo with the right colleague.</li><li>A follow-up after their planning meeting.</li></ul><p>Send the invitation while you are still on the phone.</p>',
          question: 'Write the sentence you will use to book the next meeting.',
          answers: [],
        },
      },
    ],
  },
  {
    name: 'Customer Discovery',
    description:
      'Ask better questions, talk less and find the business pain behind every request before you propose anything.',
    category: 'Sales',
    classroom: 'sales',
    status: 'paused',
    startInDays: -2,
    channels: ['slack', 'whatsapp'],
    lists: ['Customer Success'],
    lessons: [
      {
        minutes: 3,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Open and closed questions',
          intro:
            'Closed questions confirm facts; open questions uncover stories. Discovery needs mostly open ones.',
          content:
            '<p>Open questions start with <strong>what</strong>, <strong>how</strong> or <strong>tell me about</strong>. They invite the customer to describe their world.</p><p>Keep closed questions for confirming details at the end.</p>',
          question: 'Which of these is an open question?',
          answers: [
            [
              'What happens today when an order is late?',
              'Yes! It invites the customer to describe the situation.',
            ],
            ['Do you use a CRM?', 'This can be answered with yes or no, so it is closed.'],
            ['Is your budget approved?', 'A yes or no answer: this is a closed question.'],
          ],
        },
        it: {
          title: 'Domande aperte e chiuse',
          intro:
            'Le domande chiuse confermano i fatti; quelle aperte fanno emergere le storie. La scoperta ha bisogno soprattutto di domande aperte.',
          content:
            '<p>Le domande aperte iniziano con <strong>che cosa</strong>, <strong>come</strong> o <strong>mi racconti</strong>. Invitano il cliente a descrivere il suo mondo.</p><p>Tieni le domande chiuse per confermare i dettagli alla fine.</p>',
          question: 'Quale di queste è una domanda aperta?',
          answers: [
            [
              'Che cosa succede oggi quando un ordine è in ritardo?',
              'Sì! Invita il cliente a descrivere la situazione.',
            ],
            ['Usate un CRM?', 'Si risponde con sì o no, quindi è una domanda chiusa.'],
            ['Il budget è approvato?', 'Una risposta sì o no: è una domanda chiusa.'],
          ],
        },
      },
      {
        minutes: 2,
        type: 'true_false',
        correct: 1,
        mandatory: true,
        en: {
          title: 'Talk less, learn more',
          intro:
            'The best discovery calls feel like the customer did most of the talking, because they did.',
          content:
            '<p>Aim for the customer to speak about <strong>70%</strong> of the time.</p><ul><li>Ask one question at a time.</li><li>Pause after the answer: more often comes.</li><li>Take notes in their words, not yours.</li></ul>',
          question: 'In a discovery call the seller should do most of the talking.',
          answers: trueFalse(
            'en',
            'No: discovery is about listening. Let the customer talk.',
            'Correct! The customer should speak most of the time.',
          ),
        },
        it: {
          title: 'Parla meno, scopri di più',
          intro:
            'Nelle migliori chiamate di scoperta sembra che il cliente abbia parlato quasi sempre, perché è così.',
          content:
            '<p>Punta a far parlare il cliente per circa il <strong>70%</strong> del tempo.</p><ul><li>Fai una domanda alla volta.</li><li>Dopo la risposta fai una pausa: spesso arriva altro.</li><li>Prendi appunti con le sue parole, non con le tue.</li></ul>',
          question: 'In una chiamata di scoperta è il venditore che dovrebbe parlare di più.',
          answers: trueFalse(
            'it',
            'No: la scoperta si basa sull’ascolto. Lascia parlare il cliente.',
            'Corretto! È il cliente che dovrebbe parlare per la maggior parte del tempo.',
          ),
        },
      },
      {
        minutes: 5,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Find the pain behind the request',
          intro:
            'Customers often ask for a feature. Your job is to find the business problem that makes it urgent.',
          content:
            '<p>When a customer asks for something specific, dig one level deeper:</p><ul><li>“What does this cost you today?”</li><li>“Who else is affected?”</li><li>“What happens if nothing changes?”</li></ul><p>The answers become the heart of your proposal.</p>',
          question: 'A client asks for “a faster report”. What do you ask next?',
          answers: [
            [
              'What does the delay cost you today?',
              'Great: now you can link your offer to a business cost.',
            ],
            [
              'Which colour should the report be?',
              'A detail for later. First find out why speed matters.',
            ],
            ['Shall I send you a quote now?', 'Too early: you do not know the problem yet.'],
          ],
        },
        it: {
          title: 'Trova il problema dietro la richiesta',
          intro:
            'Spesso i clienti chiedono una funzione. Il tuo compito è scoprire il problema di business che la rende urgente.',
          content:
            '<p>Quando un cliente chiede qualcosa di specifico, scava un livello più a fondo:</p><ul><li>«Quanto vi costa oggi questa situazione?»</li><li>«Chi altro ne è coinvolto?»</li><li>«Che cosa succede se non cambia nulla?»</li></ul><p>Le risposte diventano il cuore della tua proposta.</p>',
          question: 'Un cliente chiede «un report più veloce». Che cosa chiedi dopo?',
          answers: [
            [
              'Quanto vi costa oggi il ritardo?',
              'Ottimo: ora puoi collegare la tua offerta a un costo reale.',
            ],
            [
              'Di che colore deve essere il report?',
              'È un dettaglio per dopo. Prima scopri perché la velocità conta.',
            ],
            ['Le mando subito un preventivo?', 'Troppo presto: non conosci ancora il problema.'],
          ],
        },
      },
      {
        minutes: 6,
        type: 'open_answer',
        mandatory: false,
        en: {
          title: 'Write up the call',
          intro:
            'A discovery call is only useful if the team can read what you learned. Keep the summary short.',
          content:
            '<p>Use three sentences:</p><ol><li>The situation today.</li><li>The problem and what it costs.</li><li>What success looks like for the customer.</li></ol><p>Save it in the CRM within one hour of the call.</p>',
          question: 'Summarise a recent discovery call in three sentences.',
          answers: [],
        },
        it: {
          title: 'Riassumi la chiamata',
          intro:
            'Una chiamata di scoperta serve solo se il team può leggere che cosa hai imparato. Tieni il riassunto breve.',
          content:
            '<p>Usa tre frasi:</p><ol><li>La situazione di oggi.</li><li>Il problema e quanto costa.</li><li>Che cosa significa il successo per il cliente.</li></ol><p>Salvalo nel CRM entro un’ora dalla chiamata.</p>',
          question: 'Riassumi in tre frasi una tua recente chiamata di scoperta.',
          answers: [],
        },
      },
    ],
  },
  {
    name: 'Closing Techniques',
    description:
      'Three lessons on asking for the business with confidence: trial closes, the assumptive close and handling delays.',
    category: 'Sales',
    classroom: 'sales',
    status: 'canceled',
    startInDays: 20,
    channels: ['webex'],
    lists: ['Team Leads'],
    lessons: [
      {
        minutes: 3,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Trial closes',
          intro:
            'A trial close checks how ready the buyer is, without asking for the final decision yet.',
          content:
            '<p>Use trial closes throughout the conversation:</p><ul><li>“How does this fit with what you described?”</li><li>“If we solved that, would you move forward?”</li></ul><p>A hesitant answer shows you what still needs work.</p>',
          question: 'What is the purpose of a trial close?',
          answers: [
            [
              'To check how ready the buyer is',
              'Right: it measures readiness without forcing a decision.',
            ],
            [
              'To get the contract signed at once',
              'That is the final close. A trial close only tests readiness.',
            ],
            ['To end a call that is going badly', 'No: a trial close is a question, not an exit.'],
          ],
        },
        it: {
          title: 'Le chiusure di prova',
          intro:
            'Una chiusura di prova verifica quanto il cliente è pronto, senza chiedere ancora la decisione finale.',
          content:
            '<p>Usa le chiusure di prova durante tutta la conversazione:</p><ul><li>«Come si adatta a quello che mi ha descritto?»</li><li>«Se risolvessimo questo punto, andrebbe avanti?»</li></ul><p>Una risposta incerta ti mostra che cosa manca ancora.</p>',
          question: 'A che cosa serve una chiusura di prova?',
          answers: [
            [
              'A verificare quanto il cliente è pronto',
              'Giusto: misura la disponibilità senza forzare una decisione.',
            ],
            [
              'A far firmare subito il contratto',
              'Quella è la chiusura finale. La chiusura di prova verifica solo la disponibilità.',
            ],
            [
              'A terminare una chiamata che va male',
              'No: la chiusura di prova è una domanda, non una via d’uscita.',
            ],
          ],
        },
      },
      {
        minutes: 4,
        type: 'true_false',
        correct: 0,
        mandatory: true,
        en: {
          title: 'The assumptive close',
          intro:
            'When the buyer has agreed to every point, talk about the next step as if the decision is made.',
          content:
            '<p>Instead of “Do you want to buy?”, ask about the details:</p><ul><li>“Shall we start on the 1st or the 15th?”</li><li>“Who should receive the welcome pack?”</li></ul><p>Use it only when the buyer’s signals are clearly positive.</p>',
          question: 'The assumptive close works best after the buyer has agreed to every point.',
          answers: trueFalse(
            'en',
            'Correct! Used too early, it feels pushy.',
            'It is true: use it only when the signals are clearly positive.',
          ),
        },
        it: {
          title: 'La chiusura presuntiva',
          intro:
            'Quando il cliente ha approvato ogni punto, parla del passo successivo come se la decisione fosse già presa.',
          content:
            '<p>Invece di «Vuole acquistare?», chiedi i dettagli:</p><ul><li>«Partiamo il primo o il quindici del mese?»</li><li>«Chi deve ricevere il kit di benvenuto?»</li></ul><p>Usala solo quando i segnali del cliente sono chiaramente positivi.</p>',
          question:
            'La chiusura presuntiva funziona meglio dopo che il cliente ha approvato ogni punto.',
          answers: trueFalse(
            'it',
            'Corretto! Usata troppo presto, sembra una forzatura.',
            'È vero: usala solo quando i segnali sono chiaramente positivi.',
          ),
        },
      },
      {
        minutes: 5,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: '“I need to think about it”',
          intro:
            'This phrase often hides a concern the buyer has not said out loud. Your job is to bring it to the surface.',
          content:
            '<p>Respond with curiosity, not pressure:</p><ul><li>“Of course. What would you like to think over?”</li><li>“Is it the price, the timing or something else?”</li></ul><p>Agree on a date to talk again before you hang up.</p>',
          question: 'The buyer says “I need to think about it.” What is the best reply?',
          answers: [
            [
              'Ask what they would like to think over',
              'Yes! It brings the hidden concern into the open.',
            ],
            ['Offer a discount that expires today', 'Pressure rarely helps and lowers your price.'],
            [
              'Say you will call back in a few months',
              'Too passive: find the concern and agree on a date.',
            ],
          ],
        },
        it: {
          title: '«Ci devo pensare»',
          intro:
            'Questa frase spesso nasconde una preoccupazione che il cliente non ha detto. Il tuo compito è farla emergere.',
          content:
            '<p>Rispondi con curiosità, non con pressione:</p><ul><li>«Certo. Su che cosa vorrebbe riflettere?»</li><li>«Si tratta del prezzo, dei tempi o di altro?»</li></ul><p>Prima di chiudere, fissa una data per risentirvi.</p>',
          question: 'Il cliente dice: «Ci devo pensare». Qual è la risposta migliore?',
          answers: [
            [
              'Chiedere su che cosa vuole riflettere',
              'Sì! Fa emergere la preoccupazione nascosta.',
            ],
            [
              'Offrire uno sconto valido solo oggi',
              'La pressione raramente aiuta e abbassa il tuo prezzo.',
            ],
            [
              'Dire che richiamerai tra qualche mese',
              'Troppo passivo: trova la preoccupazione e fissa una data.',
            ],
          ],
        },
      },
    ],
  },
  {
    name: 'Account Planning',
    description:
      'Plan your key accounts for the year: map the buying committee, set goals and run a useful quarterly review.',
    category: 'Sales',
    classroom: 'sales',
    status: 'delivered',
    archivedDaysAgo: 3,
    startInDays: -75,
    channels: ['ms-teams'],
    lists: ['Team Leads'],
    lessons: [
      {
        minutes: 4,
        type: 'multiple_choice',
        correct: 2,
        mandatory: true,
        en: {
          title: 'Map the buying committee',
          intro:
            'Large deals are decided by groups, not individuals. Know who decides, who influences and who can block.',
          content:
            '<p>For each key account, list:</p><ul><li>The <strong>decision maker</strong> who signs.</li><li>The <strong>champions</strong> who want you to win.</li><li>The <strong>blockers</strong> who may object.</li></ul>',
          question: 'Who usually signs the final agreement?',
          answers: [
            ['The champion', 'Champions help you, but rarely sign.'],
            ['The end user', 'End users matter, but seldom hold the budget.'],
            ['The decision maker', 'Correct: the decision maker holds budget and signature.'],
          ],
        },
      },
      {
        minutes: 3,
        type: 'true_false',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Set account goals',
          intro:
            'An account plan without numbers is a wish list. Give every key account a clear goal.',
          content:
            '<p>Good account goals are specific and dated, for example:</p><ul><li>“Add the Milan office by June.”</li><li>“Renew for two years at the current price.”</li></ul>',
          question: 'Account goals should include a date.',
          answers: trueFalse(
            'en',
            'Correct: a date turns a wish into a plan.',
            'It is true: without a date, progress cannot be measured.',
          ),
        },
      },
      {
        minutes: 6,
        type: 'open_answer',
        mandatory: false,
        en: {
          title: 'Run the quarterly review',
          intro:
            'A quarterly review with the customer keeps the relationship about results, not invoices.',
          content:
            '<p>A good review covers:</p><ol><li>Results since the last review.</li><li>What did not go well, and the fix.</li><li>Priorities for the next quarter.</li></ol>',
          question: 'Which customer would benefit most from a review this quarter, and why?',
          answers: [],
        },
      },
    ],
  },
  {
    name: 'Welcome to Acme',
    description:
      'Your first five days at Acme Training: our story and values, your first week, the tools we use and who to ask.',
    category: 'Onboarding',
    classroom: 'onboarding',
    status: 'active',
    startInDays: -1,
    channels: ['ms-teams', 'whatsapp'],
    lists: ['New Hires 2026'],
    time: '09:00',
    repeatQuestions: true,
    lessons: [
      {
        minutes: 5,
        type: 'multiple_choice',
        correct: 2,
        mandatory: true,
        media: { type: 'link', url: 'https://videos.acme.example/onboarding/welcome.mp4' },
        en: {
          title: 'Our story and our values',
          intro:
            'Acme Training started in 2012 with one classroom in Dublin. Today we train sales teams in twelve countries.',
          content:
            '<p>Three values guide how we work:</p><ul><li><strong>Customer first</strong>: we measure ourselves by our customers’ results.</li><li><strong>Own it</strong>: if you see a problem, you take care of it.</li><li><strong>Learn every day</strong>: a little, often.</li></ul>',
          question: 'Which of these is one of Acme’s three values?',
          answers: [
            ['Win at any cost', 'Not at Acme: we put customers first.'],
            ['Move fast and break things', 'Not one of ours. We own our results instead.'],
            ['Learn every day', 'Correct! A little learning, often.'],
          ],
        },
        it: {
          title: 'La nostra storia e i nostri valori',
          intro:
            'Acme Training è nata nel 2012 con una sola aula a Dublino. Oggi formiamo team commerciali in dodici paesi.',
          content:
            '<p>Tre valori guidano il nostro lavoro:</p><ul><li><strong>Prima il cliente</strong>: ci misuriamo sui risultati dei nostri clienti.</li><li><strong>Prenditene cura</strong>: se vedi un problema, te ne occupi.</li><li><strong>Impara ogni giorno</strong>: poco, ma spesso.</li></ul>',
          question: 'Quale di questi è uno dei tre valori di Acme?',
          answers: [
            ['Vincere a ogni costo', 'Non in Acme: per noi viene prima il cliente.'],
            [
              'Muoversi in fretta e rompere le cose',
              'Non è uno dei nostri. Noi ci prendiamo cura dei risultati.',
            ],
            ['Imparare ogni giorno', 'Corretto! Poco, ma spesso.'],
          ],
        },
      },
      {
        minutes: 3,
        type: 'true_false',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Your first week',
          intro:
            'Nobody expects you to know everything in week one. We do expect you to meet people.',
          content:
            '<p>In your first week:</p><ul><li>Book a coffee with your buddy.</li><li>Meet your manager to agree on your 30-day goals.</li><li>Join the Monday all-hands call.</li></ul>',
          question: 'You should book a coffee with your buddy during your first week.',
          answers: trueFalse(
            'en',
            'Yes! Your buddy is your first point of contact.',
            'It is true: your buddy is there to help you settle in.',
          ),
        },
        it: {
          title: 'La tua prima settimana',
          intro:
            'Nessuno si aspetta che tu sappia tutto nella prima settimana. Ci aspettiamo però che tu conosca le persone.',
          content:
            '<p>Nella prima settimana:</p><ul><li>Prendi un caffè con il tuo buddy.</li><li>Incontra il tuo responsabile per fissare gli obiettivi dei primi 30 giorni.</li><li>Partecipa alla riunione generale del lunedì.</li></ul>',
          question: 'Durante la prima settimana dovresti prendere un caffè con il tuo buddy.',
          answers: trueFalse(
            'it',
            'Sì! Il buddy è il tuo primo punto di riferimento.',
            'È vero: il buddy è lì per aiutarti ad ambientarti.',
          ),
        },
      },
      {
        minutes: 4,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'The tools we use',
          intro: 'A short tour of the tools you will open every day, and where to find each one.',
          content:
            '<ul><li><strong>MS Teams</strong> for chat and calls.</li><li><strong>The CRM</strong> for every customer contact.</li><li><strong>The HR portal</strong> for time off, payslips and expenses.</li></ul><p>All of them use your Acme single sign-on.</p>',
          question: 'Where do you request time off?',
          answers: [
            ['In the HR portal', 'Correct: time off, payslips and expenses live there.'],
            ['By email to the CEO', 'Please don’t! Use the HR portal.'],
            ['In a team chat channel', 'Chat is for talking; requests go through the HR portal.'],
          ],
        },
        it: {
          title: 'Gli strumenti che usiamo',
          intro:
            'Un breve giro tra gli strumenti che aprirai ogni giorno e dove trovare ciascuno di essi.',
          content:
            '<ul><li><strong>MS Teams</strong> per chat e chiamate.</li><li><strong>Il CRM</strong> per ogni contatto con i clienti.</li><li><strong>Il portale HR</strong> per ferie, buste paga e note spese.</li></ul><p>Tutti usano il tuo accesso unico Acme.</p>',
          question: 'Dove si chiedono le ferie?',
          answers: [
            ['Nel portale HR', 'Corretto: ferie, buste paga e note spese sono lì.'],
            ['Con un’email all’amministratore delegato', 'Meglio di no! Usa il portale HR.'],
            [
              'In un canale di chat del team',
              'La chat serve per parlare; le richieste passano dal portale HR.',
            ],
          ],
        },
      },
      {
        minutes: 3,
        type: 'true_false',
        correct: 1,
        mandatory: true,
        en: {
          title: 'Security basics',
          intro:
            'Most attacks start with a convincing email. A few habits protect you and our customers.',
          content:
            '<ul><li>Nobody at Acme will ever ask for your password.</li><li>Lock your screen when you leave your desk.</li><li>Report anything suspicious to <strong>security@acme.example</strong>.</li></ul>',
          question: 'It is fine to share your password with IT support if they ask by email.',
          answers: trueFalse(
            'en',
            'No: nobody at Acme will ever ask for your password. Report such emails.',
            'Correct! Never share your password, whoever asks.',
          ),
        },
        it: {
          title: 'Le basi della sicurezza',
          intro:
            'La maggior parte degli attacchi inizia con un’email convincente. Poche abitudini proteggono te e i nostri clienti.',
          content:
            '<ul><li>Nessuno in Acme ti chiederà mai la password.</li><li>Blocca lo schermo quando lasci la scrivania.</li><li>Segnala qualsiasi cosa sospetta a <strong>security@acme.example</strong>.</li></ul>',
          question: 'Puoi condividere la password con il supporto IT se te la chiede via email.',
          answers: trueFalse(
            'it',
            'No: nessuno in Acme ti chiederà mai la password. Segnala queste email.',
            'Corretto! Non condividere mai la password, chiunque la chieda.',
          ),
        },
      },
      {
        minutes: 2,
        type: 'open_answer',
        mandatory: false,
        en: {
          title: 'Who to ask',
          intro: 'Questions are welcome at Acme. Here is who can help with what.',
          content:
            '<ul><li><strong>Your buddy</strong>: everyday questions.</li><li><strong>Your manager</strong>: goals and priorities.</li><li><strong>People team</strong>: contracts, benefits and time off.</li></ul>',
          question: 'What is one thing you would still like to know about Acme?',
          answers: [],
        },
        it: {
          title: 'A chi chiedere',
          intro: 'In Acme le domande sono benvenute. Ecco chi può aiutarti e su che cosa.',
          content:
            '<ul><li><strong>Il tuo buddy</strong>: le domande di ogni giorno.</li><li><strong>Il tuo responsabile</strong>: obiettivi e priorità.</li><li><strong>Il team People</strong>: contratti, benefit e ferie.</li></ul>',
          question: 'Che cosa vorresti sapere ancora su Acme?',
          answers: [],
        },
      },
    ],
  },
  {
    name: 'Security Essentials',
    description:
      'Three short lessons every new colleague takes: spot phishing, choose strong passphrases and report incidents fast.',
    category: 'Compliance',
    classroom: 'onboarding',
    status: 'scheduled',
    startInDays: 45,
    channels: ['ms-teams'],
    lists: ['New Hires 2026'],
    lessons: [
      {
        minutes: 4,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Spot a phishing email',
          intro:
            'Phishing emails pretend to come from someone you trust. A few checks catch almost all of them.',
          content:
            '<p>Before you click, check:</p><ul><li>Does the sender address match the company?</li><li>Is there pressure to act now?</li><li>Does the link go where the text says? Hover to see.</li></ul>',
          question: 'Which sign most often gives a phishing email away?',
          answers: [
            [
              'A sender address that does not match the company',
              'Correct: always check the real sender address.',
            ],
            [
              'A greeting with your first name',
              'Attackers often know your name; it proves nothing.',
            ],
            ['A company logo at the top', 'Logos are easy to copy; check the sender instead.'],
          ],
        },
        it: {
          title: 'Riconoscere un’email di phishing',
          intro:
            'Le email di phishing fingono di arrivare da qualcuno di cui ti fidi. Pochi controlli le smascherano quasi tutte.',
          content:
            '<p>Prima di cliccare, controlla:</p><ul><li>L’indirizzo del mittente corrisponde all’azienda?</li><li>C’è fretta di agire subito?</li><li>Il link porta dove dice il testo? Passaci sopra con il mouse.</li></ul>',
          question: 'Quale segnale tradisce più spesso un’email di phishing?',
          answers: [
            [
              'Un mittente che non corrisponde all’azienda',
              'Corretto: controlla sempre l’indirizzo reale del mittente.',
            ],
            [
              'Un saluto con il tuo nome',
              'Chi attacca spesso conosce il tuo nome; non dimostra nulla.',
            ],
            [
              'Il logo aziendale in alto',
              'I loghi si copiano facilmente; controlla piuttosto il mittente.',
            ],
          ],
        },
      },
      {
        minutes: 3,
        type: 'true_false',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Strong passphrases',
          intro: 'Length beats complexity. A passphrase is easy to remember and hard to guess.',
          content:
            '<p>A good passphrase:</p><ul><li>has four or more random words, such as “river-lamp-orbit-tulip”;</li><li>is different for every service;</li><li>lives in the company password manager.</li></ul>',
          question: 'Four random words make a stronger password than a short complex one.',
          answers: trueFalse(
            'en',
            'Correct! Length matters more than symbols.',
            'It is true: length beats complexity.',
          ),
        },
        it: {
          title: 'Passphrase robuste',
          intro:
            'La lunghezza batte la complessità. Una passphrase è facile da ricordare e difficile da indovinare.',
          content:
            '<p>Una buona passphrase:</p><ul><li>ha almeno quattro parole casuali, come «fiume-lampada-orbita-tulipano»;</li><li>è diversa per ogni servizio;</li><li>è salvata nel gestore di password aziendale.</li></ul>',
          question:
            'Quattro parole casuali formano una password più robusta di una breve e complessa.',
          answers: trueFalse(
            'it',
            'Corretto! Conta più la lunghezza dei simboli.',
            'È vero: la lunghezza batte la complessità.',
          ),
        },
      },
      {
        minutes: 3,
        type: 'multiple_choice',
        correct: 0,
        mandatory: true,
        en: {
          title: 'Report an incident',
          intro:
            'Mistakes happen. What matters is reporting them quickly, so the security team can act.',
          content:
            '<p>If you clicked a suspicious link or lost a device:</p><ol><li>Report it to <strong>security@acme.example</strong> at once.</li><li>Do not try to fix it yourself.</li><li>Keep the email or message as evidence.</li></ol>',
          question: 'You clicked a suspicious link. What do you do first?',
          answers: [
            ['Report it to the security team at once', 'Correct: speed limits the damage.'],
            ['Delete the email and say nothing', 'Hiding it gives an attacker more time.'],
            ['Restart your laptop and carry on', 'A restart does not remove a threat. Report it.'],
          ],
        },
        it: {
          title: 'Segnalare un incidente',
          intro:
            'Gli errori capitano. Conta segnalarli in fretta, così il team di sicurezza può intervenire.',
          content:
            '<p>Se hai cliccato un link sospetto o hai perso un dispositivo:</p><ol><li>Segnalalo subito a <strong>security@acme.example</strong>.</li><li>Non cercare di risolvere da solo.</li><li>Conserva l’email o il messaggio come prova.</li></ol>',
          question: 'Hai cliccato un link sospetto. Che cosa fai per prima cosa?',
          answers: [
            ['Lo segnalo subito al team di sicurezza', 'Corretto: la rapidità limita i danni.'],
            ['Cancello l’email e non dico nulla', 'Nasconderlo dà più tempo a chi attacca.'],
            ['Riavvio il portatile e continuo', 'Un riavvio non elimina la minaccia. Segnalalo.'],
          ],
        },
      },
    ],
  },
  {
    name: 'Presenting with Confidence',
    description:
      'A three-day draft for freelance trainers: know your audience, structure your talk and keep your nerves in check.',
    category: 'Soft skills',
    classroom: 'free',
    status: 'draft',
    channels: [],
    lists: [],
    lessons: [
      {
        minutes: 3,
        type: 'multiple_choice',
        correct: 1,
        mandatory: true,
        en: {
          title: 'Know your audience',
          intro: 'The same talk can land or fail depending on who is listening. Start with them.',
          content:
            '<p>Before you prepare slides, answer three questions:</p><ul><li>What do they already know?</li><li>What do they need to do after your talk?</li><li>What might worry them?</li></ul>',
          question: 'What should you find out first when preparing a talk?',
          answers: [
            ['Which template to use', 'The look comes later. Start with the audience.'],
            [
              'What the audience already knows',
              'Yes! It tells you where to start and what to skip.',
            ],
            ['How many slides you need', 'The number follows from your message, not before it.'],
          ],
        },
      },
      {
        minutes: 4,
        type: 'true_false',
        correct: 0,
        mandatory: true,
        en: {
          title: 'A structure in three parts',
          intro: 'Audiences remember structure. Three parts are easy to follow and easy to recall.',
          content:
            '<ol><li><strong>Tell them why</strong> it matters.</li><li><strong>Show them how</strong>, with one example per point.</li><li><strong>Ask them to act</strong>: one clear next step.</li></ol>',
          question: 'Ending with one clear next step helps the audience act on your talk.',
          answers: trueFalse(
            'en',
            'Correct! One clear action is easy to remember.',
            'It is true: a single next step turns a talk into action.',
          ),
        },
      },
      {
        minutes: 5,
        type: 'open_answer',
        mandatory: false,
        en: {
          title: 'Handle your nerves',
          intro: 'Nerves are energy. A few habits turn them into focus.',
          content:
            '<ul><li>Rehearse the first two minutes until they are automatic.</li><li>Breathe out slowly before you start.</li><li>Look at one friendly face, then the next.</li></ul>',
          question: 'Which of these habits will you try before your next session?',
          answers: [],
        },
      },
    ],
  },
];
