// Entry point; filled in by its issue.
