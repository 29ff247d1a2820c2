import Foundation
import MediaIndex
import MediaModel

/// The hosts of a shared PostgreSQL library (`hosts`, "pg v11"): each opening host is recorded by its id,
/// renamed when its name changed, refused when its identity is in doubt, and given the rows an earlier mlib
/// wrote under its name.
enum PostgresHosts {
    /// A lock key of its own: two hosts registering at once take turns (two hosts of one name, each adopting).
    static let lockKey: Int64 = 0x6d6c_6962_0000_0002

    /// Why a host may not open the library as itself.
    struct Refusal: Error { var reason: String }

    /// Records `me` in `hosts` and adopts the rows named by its name. An up-to-date host costs one round
    /// trip (a read); a new, renamed or adopting one a transaction under `lockKey`. Refused:
    /// - an id file copied to another machine (the id's recorded machine is not this one), unless the id
    ///   was given (`MLIB_HOST_ID`: the host moved here, and is recorded on this machine from now on);
    /// - a name given by `MLIB_HOST` that another host (another id) goes by: `MLIB_HOST` labels this host,
    ///   it cannot make this host act on another's roots (that takes `MLIB_HOST_ID`).
    /// What `register` needs to know, in five text columns: the hosts of `me`'s id or name, and a 'legacy' row
    /// when rows under `me`'s name are there to adopt; and a 'share' row (name, this host's mount point and
    /// the share's stored path, in hex) per share `me` mounts elsewhere than where its rows are stored, which
    /// every item read of this host translates (`relocatedShares`). Sent with the schema's own question at opening
    /// (`PostgresSchema.migrate(asking:)`): an up-to-date host opens the library in one round trip.
    static func probe(_ me: HostIdentity) -> SQLStatement {
        """
        SELECT 'host', id, name, machine, NULL FROM hosts WHERE id = \(me.id) OR name = \(me.name)
        UNION ALL SELECT 'legacy', NULL, NULL, NULL, NULL WHERE NOT EXISTS (SELECT 1 FROM hosts WHERE id = \(me.name))
            AND (EXISTS (SELECT 1 FROM roots WHERE host = \(me.name)) OR EXISTS (SELECT 1 FROM items WHERE host = \(me.name)))
        UNION ALL SELECT 'share', s.name, encode(s.path, 'hex'), encode(r.path, 'hex'), NULL
            FROM shares s JOIN roots r ON r.host = \(SharedRoot.prefix) || s.name WHERE s.host = \(me.id) AND s.path <> r.path
        """
    }

    /// `known`: `probe`'s rows, when the opening asked (nil: ask now).
    /// Returns `probe`'s rows.
    @discardableResult
    static func register(_ session: PostgresSession, _ me: HostIdentity, known: [SQLRow]? = nil) throws -> [SQLRow] {
        let machine = machineDigest(me.machine)
        let rows = try known ?? session.run { x in try x.rows(probe(me)) }
        let state = (hosts: rows.filter { $0.text(0) == "host" }, legacy: rows.contains { $0.text(0) == "legacy" })
        try check(state.hosts, me, machine)
        let recorded = state.hosts.first { $0.text(1) == me.id }
        if let recorded, recorded.text(2) == me.name, recorded.text(3) == machine, !state.legacy { return rows }
        try session.transaction { x in
            try x.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
            // Read again under the lock: another host may have registered or adopted meanwhile.
            try check(try x.rows("SELECT 'host', id, name, machine FROM hosts WHERE id = \(me.id) OR name = \(me.name)"), me, machine)
            let now = Date().timeIntervalSince1970
            try x.execute("""
                INSERT INTO hosts (id, name, machine, first_seen, last_seen) VALUES (\(me.id), \(me.name), \(machine), \(now), \(now))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, machine = excluded.machine, last_seen = excluded.last_seen
                """)
            // Rows written before host ids carry the host's name; never adopted from a host whose id is that
            // name (MLIB_HOST_ID=den MLIB_HOST=den: those rows are its own).
            for (table, column) in [("roots", "host"), ("items", "host"), ("failures", "host"), ("mounts", "host"), ("playlists", "source_host")] {
                try x.execute("""
                    UPDATE \(raw: table) SET \(raw: column) = \(me.id) WHERE \(raw: column) = \(me.name)
                        AND NOT EXISTS (SELECT 1 FROM hosts WHERE id = \(me.name))
                    """)
            }
        }
        return rows
    }

    /// The shares `me` mounts elsewhere than where their rows are stored, from `probe`'s 'share' rows.
    static func relocatedShares(_ rows: [SQLRow]) -> [SharedRoot] {
        func path(_ hex: String?) -> MediaPath? {
            guard let hex, hex.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var i = hex.startIndex
            while i < hex.endIndex {
                let next = hex.index(i, offsetBy: 2)
                guard let byte = UInt8(hex[i..<next], radix: 16) else { return nil }
                bytes.append(byte)
                i = next
            }
            return MediaPath(bytes: bytes)
        }
        return rows.filter { $0.text(0) == "share" }.compactMap { row in
            guard let name = row.text(1), let mount = path(row.text(2)), let stored = path(row.text(3)) else { return nil }
            return SharedRoot(name: name, path: mount, storedPath: stored)
        }
    }

    /// Throws when `rows` (hosts of `me`'s id or name) show `me` is not who it says.
    static func check(_ rows: [SQLRow], _ me: HostIdentity, _ machine: String) throws {
        if !me.idGiven, let recorded = rows.first(where: { $0.text(1) == me.id }), let there = recorded.text(3),
           !there.isEmpty, !machine.isEmpty, there != machine {
            throw Refusal(reason: """
                this host's identity \(me.id) is already host '\(recorded.text(2) ?? "")' on another machine (its id file was \
                copied here?); two machines with one identity would scan over each other's files. Delete \
                \(HostIdentity.idFile(environment: ConfigurationDirectory.environment)) on this machine to give it an identity of its \
                own, or, if this machine now is that host (reinstalled, moved), set MLIB_HOST_ID=\(me.id) once to move it here
                """)
        }
        if me.nameGiven, let other = rows.first(where: { $0.text(1) != me.id && $0.text(2) == me.name }) {
            throw Refusal(reason: """
                MLIB_HOST=\(me.name) is the name of another host of this library (id \(other.text(1) ?? "")); MLIB_HOST only names \
                this host, it does not make it act on another host's roots: give this host a name of its own, or set \
                MLIB_HOST_ID=\(other.text(1) ?? "") to act as that host on purpose
                """)
        }
    }

    /// The machine id as stored: a digest, not the id itself (systemd asks that it not be shown to others).
    static func machineDigest(_ machine: String) -> String {
        guard !machine.isEmpty else { return "" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("mlib host\u{0}\(machine)".utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
