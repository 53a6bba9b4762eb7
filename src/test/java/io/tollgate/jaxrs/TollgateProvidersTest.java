package io.tollgate.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ext.Provider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** An application that lists its JAX-RS classes gets every one a scan would find: each provider and resource of Tollgate. */
class TollgateProvidersTest {

    @Test
    void listsEveryProviderAndResourceAScanFinds() {
        var scanned = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tollgate").stream()
                .filter(type -> type.isAnnotatedWith(Provider.class) || type.isAnnotatedWith(Path.class))
                .map(JavaClass::reflect).collect(Collectors.toSet());
        assertThat(scanned).isNotEmpty();
        assertThat(TollgateProviders.classes()).containsExactlyInAnyOrderElementsOf(scanned);
    }
}
