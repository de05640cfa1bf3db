import { PlaceholderPage } from '../../components/placeholder-page.tsx';

/** The learners centre arrives with the learners issue. */
export const LearnerList = () => <PlaceholderPage titleKey="learners.titles.list" />;
