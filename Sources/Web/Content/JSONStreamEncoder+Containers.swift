/// The `Encoder` and container types behind `JSONStreamEncoder`: each forwards to the sink.
struct JSONStreamEncoderImpl: Encoder {
    let sink: JSONSink
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedJSONContainer(sink: sink, id: sink.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedJSONContainer(sink: sink, id: sink.openContainer(UInt8(ascii: "["), UInt8(ascii: "]")))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueJSONContainer(sink: sink)
    }
}

struct KeyedJSONContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: JSONSink
    let id: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        try sink.writeKey(key.stringValue, in: id)
        sink.writeRaw("null")
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try sink.writeKey(key.stringValue, in: id)
        sink.writeRaw(value ? "true" : "false")
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try sink.writeKey(key.stringValue, in: id)
        sink.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try sink.writeKey(key.stringValue, in: id)
        try sink.writeDouble(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try sink.writeKey(key.stringValue, in: id)
        sink.writeRaw(String(value))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try sink.writeKey(key.stringValue, in: id)
        try sink.encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        try? sink.writeKey(key.stringValue, in: id)
        return JSONStreamEncoderImpl(sink: sink).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        try? sink.writeKey(key.stringValue, in: id)
        return JSONStreamEncoderImpl(sink: sink).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { OutOfOrderEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { OutOfOrderEncoder() }
}

struct UnkeyedJSONContainer: UnkeyedEncodingContainer {
    let sink: JSONSink
    let id: Int
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() throws {
        try sink.beginElement(in: id)
        sink.writeRaw("null")
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try sink.beginElement(in: id)
        try sink.encodeValue(value)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        try? sink.beginElement(in: id)
        count += 1
        return JSONStreamEncoderImpl(sink: sink).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        try? sink.beginElement(in: id)
        count += 1
        return JSONStreamEncoderImpl(sink: sink).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { OutOfOrderEncoder() }
}

struct SingleValueJSONContainer: SingleValueEncodingContainer {
    let sink: JSONSink
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { sink.writeRaw("null") }
    mutating func encode(_ value: Bool) throws { sink.writeRaw(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { sink.writeString(value) }
    mutating func encode(_ value: Double) throws { try sink.writeDouble(value) }
    mutating func encode(_ value: Float) throws { try sink.writeDouble(Double(value)) }
    mutating func encode(_ value: Int) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: Int64) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: UInt64) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: Int8) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: Int16) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: Int32) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: UInt) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: UInt8) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: UInt16) throws { sink.writeRaw(String(value)) }
    mutating func encode(_ value: UInt32) throws { sink.writeRaw(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try sink.encodeValue(value) }
}

/// `superEncoder` has no streaming form; using it makes the encode fall back to `JSONEncoder`.
struct OutOfOrderEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedJSONContainer(sink: JSONSink(), id: -1))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedJSONContainer(sink: JSONSink(), id: -1) }
    func singleValueContainer() -> any SingleValueEncodingContainer { FailingSingleValue() }
}

struct FailingSingleValue: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Bool) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: String) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Double) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Float) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Int) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Int8) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Int16) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Int32) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: Int64) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: UInt) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: UInt8) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: UInt16) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: UInt32) throws { throw JSONStreamEncoder.OutOfOrder() }
    mutating func encode(_ value: UInt64) throws { throw JSONStreamEncoder.OutOfOrder() }
}
