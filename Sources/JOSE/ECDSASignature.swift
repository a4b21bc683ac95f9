import COpenSSL

/// ES256's signature in a JWS is R and S as two 32-byte big-endian numbers side by side
/// (RFC 7518 §3.4); OpenSSL signs and verifies the DER `ECDSA-Sig-Value` SEQUENCE instead.
/// These convert between the two through OpenSSL's `ECDSA_SIG` (its accessors are not
/// deprecated).
enum ECDSASignature {
    /// The width of R and of S for P-256.
    static let coordinateSize = 32

    /// R ‖ S, 64 bytes, from OpenSSL's DER.
    static func raw(fromDER der: [UInt8]) throws(JOSEError) -> [UInt8] {
        let decoded = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature = decoded else { throw .openSSL("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let size = Int32(coordinateSize)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, size)
                + BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + coordinateSize, size)
        }
        guard written == 2 * size else { throw .openSSL("BN_bn2binpad") }
        return raw
    }

    /// OpenSSL's DER from R ‖ S; nil unless `raw` is exactly 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * coordinateSize, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(raw, Int32(coordinateSize), nil) else { return nil }
        guard let s = Array(raw[coordinateSize...]).withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress, Int32(coordinateSize), nil) })
        else {
            BN_free(r)
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {  // on success the signature owns r and s
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}
