import MediaModel
import Testing

/// The one number form of every command's JSON (mlib(1), JSON NUMBERS): 6 decimals, then the shortest text
/// that reads back as that value.
struct JSONNumberTests {
    @Test(arguments: [
        (0.1 + 0.2, "0.3"), (0.09999999999999999, "0.1"), (1.0, "1"), (-0.5, "-0.5"), (0, "0"),
        (3.0040816326530613, "3.004082"), (1795305386.1234567, "1795305386.123457"), (1795305386.7, "1795305386.7"),
        (1e20, "1e+20"), (0.0000004, "0"), (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func numbers(value: Double, text: String) {
        #expect(JSONValue.number(value) == text)
        #expect(JSONValue.double(value).serialized() == text)
    }
}
