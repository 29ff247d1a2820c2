import Foundation
import MediaIndex
import NIOSSL
import PostgresNIO

/// How a TCP connection to a PostgreSQL library is secured, with libpq's settings and defaults, so that a
/// locator `psql` accepts means the same here: `sslmode` (`?sslmode=` or `PGSSLMODE`, default `prefer`)
/// and `sslrootcert` (`?sslrootcert=` or `PGSSLROOTCERT`, default `~/.postgresql/root.crt`, or `system`
/// for the system's trusted roots). A Unix socket is never encrypted (PostgreSQL has no TLS there; libpq
/// ignores sslmode for it too).
public struct PostgresTLS: Sendable, Hashable {
    public enum Mode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// Without TLS first and, when the server refuses that connection, again with TLS (as libpq).
        case allow
        /// TLS when the server offers it, without checking its certificate; when the server refuses the TLS
        /// connection (say, `hostnossl` only in pg_hba.conf), again without TLS (as libpq).
        case prefer
        /// TLS or no connection, without checking the certificate (unless a root certificate file exists:
        /// then as `verify-ca`, as libpq does for compatibility).
        case require
        /// TLS with a certificate signed by the root certificate.
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate names the host connected to.
        case verifyFull = "verify-full"
    }

    public var mode: Mode
    /// The trusted root certificates' file (perhaps missing: libpq's default), or "system".
    public var rootCertificate: String

    /// libpq's default root certificate file.
    static func defaultRootCertificate(home: String) -> String { home + "/.postgresql/root.crt" }

    /// A setting libpq would refuse too; PostgresLocation adds the locator to its reason.
    struct Refusal: Error { var reason: String }

    init(parameters: [String: String], environment env: (String) -> String?, home: String) throws(Refusal) {
        let modeText = parameters["sslmode"] ?? env("PGSSLMODE")
        let root = parameters["sslrootcert"] ?? env("PGSSLROOTCERT")
        if let modeText {
            guard let mode = Mode(rawValue: modeText) else {
                throw Refusal(reason: "invalid sslmode value: \"\(modeText)\" (one of \(Mode.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            self.mode = mode
        } else {
            // As libpq 16: the system's roots are only worth trusting with the host name checked.
            self.mode = root == "system" ? .verifyFull : .prefer
        }
        if root == "system" && mode != .verifyFull && mode != .disable {
            throw Refusal(reason: "weak sslmode \"\(mode.rawValue)\" may not be used with sslrootcert=system (use \"verify-full\")")
        }
        rootCertificate = root ?? Self.defaultRootCertificate(home: home)
        // As libpq: `require` with a root file in place checks the certificate against it.
        if mode == .require && rootCertificateExists { mode = .verifyCA }
    }

    var rootCertificateExists: Bool {
        rootCertificate == "system" || FileManager.default.fileExists(atPath: rootCertificate)
    }

    /// Whether the server's certificate is checked.
    var verifies: Bool { mode == .verifyCA || mode == .verifyFull }

    /// postgres-nio's setting for a TCP connection (a socket has no TLS). Refuses, as libpq, to verify
    /// against a root file that is not there.
    func configuration() throws(Refusal) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable: return .disable
        case .allow, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if verifies {
            guard rootCertificateExists else {
                throw Refusal(reason: "root certificate file \"\(rootCertificate)\" does not exist: give one with sslrootcert=, "
                              + "use sslrootcert=system, or choose an sslmode that does not verify the server (require)")
            }
            tls.trustRoots = rootCertificate == "system" ? .default : .file(rootCertificate)
        }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch {
            throw Refusal(reason: "cannot use the root certificate file \"\(rootCertificate)\": \(error)")
        }
        return mode == .allow || mode == .prefer ? .prefer(context) : .require(context)
    }

    /// The context of `PostgresVerifiedChannel`'s handshake: the chain checked against the root file, the
    /// name left to mlib.
    func nameCheckedContext() throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .noHostnameVerification
        guard rootCertificateExists else {
            throw Refusal(reason: "root certificate file \"\(rootCertificate)\" does not exist: give one with sslrootcert=, "
                          + "use sslrootcert=system, or choose an sslmode that does not verify the server (require)")
        }
        tls.trustRoots = rootCertificate == "system" ? .default : .file(rootCertificate)
        do { return try NIOSSLContext(configuration: tls) } catch {
            throw Refusal(reason: "cannot use the root certificate file \"\(rootCertificate)\": \(error)")
        }
    }

    /// The connections to try in turn, as libpq: `allow` plain then TLS, `prefer` TLS (plain when the server
    /// has none) then plain, every other mode its one setting. The next is tried only when the server
    /// refused the previous one (`PostgresSession`).
    func attempts() throws(Refusal) -> [PostgresConnection.Configuration.TLS] {
        let tls = try configuration()
        switch (mode, tls.sslContext) {
        case (.allow, let context?): return [.disable, .require(context)]
        case (.prefer, _): return [tls, .disable]
        default: return [tls]
        }
    }

    /// The reason OpenSSL gives in a BoringSSL error's text, in words (`…:OPENSSL_internal:WRONG_VERSION_NUMBER]`
    /// is "wrong version number"), rather than the error's Swift description.
    static func openSSLReason(_ text: String) -> String? {
        guard let range = text.range(of: "OPENSSL_internal:") else { return nil }
        let reason = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return reason.isEmpty ? nil : reason.lowercased().replacingOccurrences(of: "_", with: " ")
    }

    /// Why a TLS connection failed, in one line naming the setting to look at (nil: not a TLS failure).
    func failure(_ error: any Error, host: String) -> String? {
        if let refused = error as? PostgresVerifiedChannel.Refused { return refused.description }
        let underlying: any Error
        if let e = error as? PSQLError {
            if e.code == .sslUnsupported { return "the server does not accept TLS (sslmode=\(mode.rawValue))" }
            guard let inner = e.underlying else { return nil }
            underlying = inner
        } else {
            underlying = error      // from mlib's own handshake (`PostgresVerifiedChannel`)
        }
        let text = String(describing: underlying)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's certificate is not signed by a root in \(rootCertificate) (sslmode=\(mode.rawValue))"
        }
        if let e = underlying as? NIOSSLExtraError, e == .failedToValidateHostname {
            return "the server's certificate does not name \(host) (sslmode=\(mode.rawValue))"
        }
        if underlying is NIOSSLError || underlying is NIOSSLExtraError || underlying is BoringSSLError {
            return "the TLS handshake failed (sslmode=\(mode.rawValue))" + (Self.openSSLReason(text).map { ": " + $0 } ?? "")
        }
        return nil
    }
}
