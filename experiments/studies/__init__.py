"""Strategy studies of the second generation (issue 18): designed experiments, one command each."""
