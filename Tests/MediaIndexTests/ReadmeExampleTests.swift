import Foundation
import MediaIndex
import SQLiteStore
import MediaModel
import Testing

/// The README's "As a Swift library" example, kept compiling and true.
struct ReadmeExampleTests {
    @Test func albumsByArtistAsInTheReadme() throws {
        let index = try SQLiteIndex(inMemory: ())
        try index.add([sampleItem("/m/1.mp3", title: "Hunter"), sampleItem("/m/2.mp3", title: "Jóga"),
                       sampleItem("/m/3.mp3", title: "Other", artist: "Sigur Rós")])

        var query = MediaQuery.albums()
        query.addFilterPredicate(MediaPropertyPredicate(value: "Björk", forProperty: .artist, comparisonType: .contains))
        let albums = try index.collections(query)

        #expect(albums.count == 1)
        #expect(albums.first?.representativeItem?.albumTitle == "Homogenic")
        #expect(albums.first?.count == 2)
    }
}
