package io.tollgate.it;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a protobuf message as its wire format has it, no schema: per field number the raw values (a varint or a
 * fixed 64-bit number as a long, a length-delimited field as its bytes). Enough to find the few OTLP fields a test
 * checks without a generated class; a malformed message throws.
 */
final class Protobuf {

    private final List<Field> fields = new ArrayList<>();

    private Protobuf(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        while (in.hasRemaining()) {
            long tag = varint(in);
            int number = (int) (tag >>> 3);
            switch ((int) (tag & 7)) {
                case 0 -> fields.add(new Field(number, varint(in), null));
                case 1 -> fields.add(new Field(number, in.getLong(), null));
                case 2 -> {
                    byte[] value = new byte[(int) varint(in)];
                    in.get(value);
                    fields.add(new Field(number, 0, value));
                }
                case 5 -> fields.add(new Field(number, in.getInt(), null));
                default -> throw new IllegalArgumentException("wire type " + (tag & 7) + " of field " + number);
            }
        }
    }

    static Protobuf parse(byte[] bytes) {
        return new Protobuf(bytes);
    }

    /** @return the embedded messages of field {@code number}, in order */
    List<Protobuf> messages(int number) {
        return fields.stream().filter(f -> f.number == number && f.bytes != null).map(f -> parse(f.bytes)).toList();
    }

    /** @return the string of field {@code number}, or {@code null} */
    String string(int number) {
        return fields.stream().filter(f -> f.number == number && f.bytes != null).findFirst()
                .map(f -> new String(f.bytes, StandardCharsets.UTF_8)).orElse(null);
    }

    /** @return the number (varint or fixed) of field {@code number}, or {@code null} */
    Long number(int number) {
        return fields.stream().filter(f -> f.number == number && f.bytes == null).findFirst().map(f -> f.value).orElse(null);
    }

    private static long varint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("a varint longer than 10 bytes");
    }

    private record Field(int number, long value, byte[] bytes) {
    }
}
