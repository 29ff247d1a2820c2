import Foundation
import Testing

/// The `mlib` executable allocates through mimalloc, not glibc's malloc (Package.swift links it): glibc's
/// malloc/free were ~15% of a full scan's CPU, and a build that lost the link would still work, only slower.
/// mimalloc announces itself on stderr when MIMALLOC_VERBOSE is set; glibc ignores the variable.
@Suite struct AllocatorTests {
    @Test func theExecutableAllocatesThroughMimalloc() throws {
        let result = try CLI.run(["--version"], environment: ["MIMALLOC_VERBOSE": "1"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("mimalloc: process init"), "stderr: \(result.stderr.prefix(300))")
    }
}
