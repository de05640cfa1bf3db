import { PlaceholderPage } from '../../components/placeholder-page.tsx';

/** The course wizard (Intro, Content, Delivery, Finish) arrives with the course wizard issue. */
export const CourseCreate = () => <PlaceholderPage titleKey="courses.titles.create" />;
