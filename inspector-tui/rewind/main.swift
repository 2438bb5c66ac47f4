import RewindCommandLine

// The `rewind` executable: the command line lives in the RewindCommandLine module (one file per command under
// inspector-tui/RewindCommandLine/Commands), so that tests run it in process.
RewindCLI.main()
