"""The request pipeline: options, the session with its one invoke(), and the policies on it."""
