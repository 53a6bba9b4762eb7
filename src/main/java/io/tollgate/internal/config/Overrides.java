package io.tollgate.internal.config;

import io.tollgate.internal.core.BucketKeys;
import io.tollgate.internal.core.Limit;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The syntax of a rule's per-key overrides: {@code <key>=<limits>} items separated by {@code ;}, each
 * {@code <limits>} as the {@code limits} attribute writes them: {@code acme=1000/1s; globex=50/1s burst 100, 5000/1h}.
 * A key is taken as written up to its last {@code =}, trimmed; {@code %} and two hex digits stand for a byte of
 * its UTF-8, so a key with {@code ;}, {@code %} or spaces at its ends is written {@code %3B}, {@code %25}, {@code %20}.
 */
final class Overrides {

    private static final String HEX = "0123456789ABCDEF";

    private Overrides() {
    }

    /** @return the limits of each key, in order; empty for a blank text */
    static Map<String, List<Limit>> parse(String text) {
        Map<String, List<Limit>> overrides = new LinkedHashMap<>();
        List<InvalidItems.Item> bad = new ArrayList<>();
        for (String item : text.split(";")) {
            if (item.isBlank()) {
                continue;
            }
            int equals = item.lastIndexOf('=');
            if (equals < 0) {
                bad.add(new InvalidItems.Item(null, "'" + item.trim() + "' is not an override; use <key>=<limits>, e.g. acme=1000/1s"));
                continue;
            }
            String keyText = item.substring(0, equals).trim();
            try {
                String key = decode(keyText);
                List<Limit> limits = Parsers.limits().parse(item.substring(equals + 1));
                if (overrides.put(key, limits) != null) {
                    bad.add(new InvalidItems.Item(null, "key '" + keyText + "' is given twice"));
                }
            } catch (IllegalArgumentException e) {
                bad.add(new InvalidItems.Item(null, "key '" + keyText + "': " + e.getMessage()));
            }
        }
        if (!bad.isEmpty()) {
            throw new InvalidItems(bad);
        }
        return overrides;
    }

    /** @return {@code overrides} in the syntax {@link #parse} reads */
    static String format(Map<String, BucketLimits> overrides) {
        return format(overrides, Overrides::encode);
    }

    /** @return {@code overrides} as {@link #format} writes them, but each key by its hash, as events name keys */
    static String formatHashed(Map<String, BucketLimits> overrides) {
        return format(overrides, BucketKeys::hash);
    }

    private static String format(Map<String, BucketLimits> overrides, Function<String, String> keyText) {
        StringBuilder text = new StringBuilder();
        overrides.forEach((key, limits) -> text.append(text.length() == 0 ? "" : "; ").append(keyText.apply(key)).append('=')
                .append(limits.text()));
        return text.toString();
    }

    /** @return {@code key} with every character the syntax reads otherwise written as {@code %XX} */
    static String encode(String key) {
        StringBuilder out = new StringBuilder();
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xFF;
            boolean edgeSpace = b == ' ' && (i == 0 || i == bytes.length - 1);
            if (b == '%' || b == ';' || b == '=' || b < 0x20 || b == 0x7F || edgeSpace) {
                out.append('%').append(HEX.charAt(b >> 4)).append(HEX.charAt(b & 0xF));
            } else if (b < 0x80) {
                out.append((char) b);
            } else {
                int end = i;
                while (end < bytes.length && (bytes[end] & 0x80) != 0) {
                    end++;
                }
                out.append(new String(bytes, i, end - i, StandardCharsets.UTF_8));
                i = end - 1;
            }
        }
        return out.toString();
    }

    private static String decode(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '%') {
                byte[] chars = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < text.length()) {
                    chars = text.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.writeBytes(chars);
                continue;
            }
            int high = i + 2 < text.length() ? HEX.indexOf(Character.toUpperCase(text.charAt(i + 1))) : -1;
            int low = high < 0 ? -1 : HEX.indexOf(Character.toUpperCase(text.charAt(i + 2)));
            if (low < 0) {
                throw new IllegalArgumentException("'%' in a key starts %XX, a byte in hex; write a '%' itself as %25");
            }
            bytes.write(high * 16 + low);
            i += 2;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
