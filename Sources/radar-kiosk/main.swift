#if canImport(Glibc)
import Glibc
#endif

exit(RadarKioskCommand.main(Array(CommandLine.arguments.dropFirst())))
