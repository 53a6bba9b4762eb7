package io.tollgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the public interfaces promise, each of their methods does: none of them is a default that only throws, so an
 * application that calls one on an injected bean never meets an {@link UnsupportedOperationException} for a method its
 * interface declares.
 */
class PublicInterfacesTest {

    private static final JavaClasses API = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tollgate");

    @Test
    void noPublicDefaultMethodThrows() {
        List<String> throwing = API.stream()
                .filter(type -> type.isInterface() && type.getModifiers().contains(JavaModifier.PUBLIC))
                .filter(type -> type.getPackageName().equals("io.tollgate") || type.getPackageName().startsWith("io.tollgate.hazelcast")
                        || type.getPackageName().startsWith("io.tollgate.jaxrs"))
                .flatMap(type -> type.getMethods().stream())
                .filter(method -> !method.getModifiers().contains(JavaModifier.ABSTRACT)
                        && !method.getModifiers().contains(JavaModifier.STATIC))
                .filter(method -> method.getConstructorCallsFromSelf().stream()
                        .anyMatch(call -> call.getTargetOwner().isAssignableTo(Throwable.class)))
                .map(method -> method.getOwner().getSimpleName() + "." + method.getName())
                .sorted()
                .toList();
        assertThat(throwing).as("default methods of public interfaces that throw").isEmpty();
    }
}
