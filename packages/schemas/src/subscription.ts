// Placeholder: filled by its slice of the foundation issue.
export {};
