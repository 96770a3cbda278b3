import Testing
@testable import SystemIO
