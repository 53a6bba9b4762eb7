package io.tollgate.simulator;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/** A properties file (the syntax of {@code microprofile-config.properties}), its entries in file order. */
public final class PropertiesFile {

    private PropertiesFile() {
    }

    /**
     * @return the properties of {@code text}, in the order they appear
     * @throws InvalidInputException if it is not in the properties syntax (a malformed {@code \\uXXXX})
     */
    public static Map<String, String> parse(String text) {
        Map<String, String> ordered = new LinkedHashMap<>();
        Properties properties = new Properties() {
            private static final long serialVersionUID = 1L;

            @Override
            public synchronized Object put(Object key, Object value) {
                ordered.put((String) key, (String) value);
                return super.put(key, value);
            }

            @Override
            public Set<Object> keySet() {
                return Collections.unmodifiableSet(super.keySet());
            }
        };
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("Not a properties file: " + e.getMessage(), java.util.List.of("not a properties file: " + e.getMessage()));
        }
        return ordered;
    }

    public static Map<String, String> read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }
}
