// The Rewind data-flow library. See docs/ARCHITECTURE.md.
