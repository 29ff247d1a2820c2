"""Validation of Subsonic XML answers against the Subsonic XSD (Fixtures/xsd, see Fixtures/README.md for which
version and why), with `xmllint --schema`, shared by the test clients in this folder that ask for XML.

An OpenSubsonic server answers with more than the Subsonic XSD knows: attributes and child elements that
OpenSubsonic adds to Subsonic's types (`type`, `serverVersion`, `openSubsonic` on the root; `mediaType`,
`genres`, `replayGain`… on a song) and whole answers of OpenSubsonic-only methods (`openSubsonicExtensions`,
`lyricsList`…). The XSD has no wildcard for them, so a validator would stop at the first one. Before
validating, this removes exactly those: a name the XSD does not declare for that element's type and that
OpenSubsonic's OpenAPI description (Fixtures/openapi/schemas) declares for its schema of the same type (Child,
AlbumID3…), and under the root, the answers the XSD has no element for. Anything else
the XSD does not allow stays and fails: a wrong type, a missing required attribute, an unknown name, a
misordered sequence.

usage (by hand): xsd_check.py FILE.xml …   prints each file's problem, exit status 1 if any.
"""
import json, os, pathlib, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

XS = "{http://www.w3.org/2001/XMLSchema}"
NS = "{http://subsonic.org/restapi}"
HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent / "Fixtures"
# MLIB_SUBSONIC_XSD: another copy of the schema, kept outside the repository (subsonic.org's 1.16.1 has no
# licence: Fixtures/README.md), for a run against it.
XSD = pathlib.Path(os.environ.get("MLIB_SUBSONIC_XSD") or FIXTURES / "xsd" / "subsonic-rest-api-1.15.0.xsd")


class XSDValidator:
    def __init__(self, xsd=XSD, openapi_dir=FIXTURES / "openapi"):
        self.xsd = pathlib.Path(xsd)
        schema = ET.parse(self.xsd).getroot()
        self.root_type = next(e.get("type") for e in schema.findall(XS + "element") if e.get("name") == "subsonic-response")
        # complexType name → (declared attributes, {child element name: type}, base type)
        self.types = {}
        for ctype in schema.findall(XS + "complexType"):
            attributes = {a.get("name") for a in ctype.iter(XS + "attribute")}
            children = {e.get("name"): e.get("type") for e in ctype.iter(XS + "element")}
            extension = ctype.find(f"{XS}complexContent/{XS}extension")
            self.types[self.local(ctype.get("name"))] = (attributes, children,
                                                         self.local(extension.get("base")) if extension is not None else None)
        self.openapi = pathlib.Path(openapi_dir) / "schemas"
        self.additions = {}   # XSD type → the names OpenSubsonic's schema of the same name adds to it
        self.removed = set()   # what was taken out as OpenSubsonic's, over the validator's life: "Type@name", "Type/name"

    # Where mlib knowingly answers more than both descriptions: an album in a folder-mode list (getAlbumList,
    # getStarred, search2, getMusicDirectory of an artist) is a Child that also carries AlbumID3's `name` and
    # `songCount`, because clients that read that list as albums need them (py-opensonic among them; see
    # albumChild in Call+FolderMode.swift). Each exception is named here and in Fixtures/README.md.
    EXCEPTIONS = {"Child": {"name", "songCount"}}

    # XSD complex types whose OpenSubsonic schema has another name.
    SCHEMA_NAMES = {"Response": "SubsonicResponse/SubsonicBaseResponse", "AlbumWithSongsID3": "AlbumID3WithSongs"}

    def opensubsonic_properties(self, type_name):
        """The property names of OpenSubsonic's schema for the XSD type `type_name` (through `allOf` and `$ref`),
        less `value`: a JSON `value` is an XML element's text (a genre's name, the lyrics), never an attribute."""
        if type_name not in self.additions:
            names = set()

            def walk(node, where):
                if isinstance(node, dict):
                    if isinstance(node.get("$ref"), str) and node["$ref"].endswith(".json"):
                        target = (where.parent / node["$ref"]).resolve()
                        if target.exists():
                            walk(json.loads(target.read_text()), target)
                    names.update(node.get("properties", {}))
                    for part in node.get("allOf", []):
                        walk(part, where)

            path = self.openapi / f"{self.SCHEMA_NAMES.get(type_name, type_name)}.json"
            if path.exists():
                walk(json.loads(path.read_text()), path)
            self.additions[type_name] = (names - {"value"}) | self.EXCEPTIONS.get(type_name, set())
        return self.additions[type_name]

    @staticmethod
    def local(name):
        return name.split(":")[-1] if name else name

    def declared(self, type_name):
        attributes, children = set(), {}
        while type_name in self.types:
            a, c, base = self.types[type_name]
            attributes |= a
            children.update(c)
            type_name = base
        return attributes, children

    def strip(self, element, type_name):
        attributes, children = self.declared(type_name)
        for name in list(element.attrib):
            if name not in attributes and name in self.opensubsonic_properties(type_name):
                del element.attrib[name]
                self.removed.add(f"{type_name}@{name}")
        for child in list(element):
            name = child.tag.removeprefix(NS)
            if name in children:
                self.strip(child, self.local(children[name]))
            elif name in self.opensubsonic_properties(type_name) or type_name == self.local(self.root_type):
                # An OpenSubsonic property, or the whole answer of an OpenSubsonic-only method.
                element.remove(child)
                self.removed.add(f"{type_name}/{name}")

    def problem(self, method, body):
        """None when the XML answer `body` (bytes) is valid against the XSD once OpenSubsonic's additions are
        taken out, else what xmllint says, with the answer."""
        try:
            root = ET.fromstring(body)
        except ET.ParseError as error:
            return f"{method}: answer is not well-formed XML: {error}\n{body[:1000]!r}"
        if root.tag != NS + "subsonic-response":
            return f"{method}: root element {root.tag}"
        self.strip(root, self.local(self.root_type))
        ET.register_namespace("", NS[1:-1])
        with tempfile.NamedTemporaryFile(suffix=".xml") as file:
            file.write(ET.tostring(root, encoding="utf-8", xml_declaration=True))
            file.flush()
            run = subprocess.run(["xmllint", "--noout", "--schema", str(self.xsd), file.name], capture_output=True, text=True)
        if run.returncode == 0:
            return None
        messages = [line.replace(file.name, "answer") for line in run.stderr.splitlines() if "validates" not in line]
        return f"{method}: answer does not match the Subsonic XSD:\n" + "\n".join(messages[:10]) + f"\n{body[:2000]!r}"


if __name__ == "__main__":
    validator, failed = XSDValidator(), False
    for name in sys.argv[1:]:
        problem = validator.problem(name, pathlib.Path(name).read_bytes())
        print(f"{name}: {problem or 'valid'}")
        failed |= problem is not None
    print("taken out as OpenSubsonic's:", " ".join(sorted(validator.removed)))
    sys.exit(1 if failed else 0)
