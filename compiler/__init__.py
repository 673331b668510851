"""The compile machinery: which compile path a batch needs, the first-use notice and
markers, the helper process that compiles part of the engine beside the command,
the faster inliner and building every path ahead of time."""
