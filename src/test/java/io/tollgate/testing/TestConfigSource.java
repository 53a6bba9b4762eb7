package io.tollgate.testing;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.spi.ConfigSource;

/** A MicroProfile config source the tests fill per application they start; it wins over every other source. */
public final class TestConfigSource implements ConfigSource {

    static final Map<String, String> PROPERTIES = new ConcurrentHashMap<>();

    @Override
    public Map<String, String> getProperties() {
        return Map.copyOf(PROPERTIES);
    }

    @Override
    public Set<String> getPropertyNames() {
        return Set.copyOf(PROPERTIES.keySet());
    }

    @Override
    public String getValue(String propertyName) {
        return PROPERTIES.get(propertyName);
    }

    @Override
    public int getOrdinal() {
        return 500;
    }

    @Override
    public String getName() {
        return "tollgate-test";
    }
}
