// Placeholder so the target has a source file while its issue is in progress.
