import { PlaceholderPage } from '../../components/placeholder-page.tsx';

/** Insights (charts, exports) arrive with the insights issue. */
export const AnalyticsList = () => <PlaceholderPage titleKey="insights.titles.list" />;
