import FrameOCRCommandLine

#if canImport(Glibc)
    import Glibc
#endif

// `frameocr`: the command-line tool. Its commands are in the FrameOCRCommandLine target.
exit(await FrameOCRTool.main(Array(CommandLine.arguments.dropFirst())))
