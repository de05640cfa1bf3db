import { PlaceholderPage } from '../../components/placeholder-page.tsx';

/** The AI import form arrives with the AI import issue. */
export const CourseImport = () => <PlaceholderPage titleKey="courses.titles.import" />;
