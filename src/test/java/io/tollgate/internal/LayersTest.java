package io.tollgate.internal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layers hold by themselves: the engine knows no framework, the Hazelcast store no CDI, and only the glue knows
 * the glue. Checked on the compiled classes, so a fully qualified name in the code counts as much as an import.
 */
class LayersTest {

    private static final String[] FRAMEWORKS = {"jakarta..", "javax.naming..", "org.eclipse.microprofile..", "com.hazelcast.."};
    private static final JavaClasses TOLLGATE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tollgate");

    @Test
    void theEngineKnowsNoFramework() {
        noClasses().that().resideInAnyPackage("..internal.core..", "..internal.config..", "..internal.request..",
                        "..internal.limiter..", "..internal.store..", "..internal.http..", "..internal.runtime..")
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .check(TOLLGATE);
    }

    @Test
    void theCoreIsTheBottom() {
        classes().that().resideInAPackage("..internal.core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "..internal.core..")
                .check(TOLLGATE);
    }

    @Test
    void theStoresKnowOnlyTheCore() {
        classes().that().resideInAPackage("..internal.store..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "..internal.core..", "..internal.store..")
                .check(TOLLGATE);
    }

    @Test
    void theHazelcastStoreKnowsNoJakartaEe() {
        noClasses().that().resideInAPackage("..internal.hazelcast..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta..", "org.eclipse.microprofile..")
                .check(TOLLGATE);
    }

    @Test
    void onlyTheCdiGlueKnowsTheCdiGlue() {
        noClasses().that().resideOutsideOfPackage("..internal.cdi..")
                .should().dependOnClassesThat().resideInAPackage("..internal.cdi..")
                .check(TOLLGATE);
    }

    @Test
    void thePublicApiKeepsNoInternalInView() {
        noClasses().that().resideInAPackage("io.tollgate")
                .should().dependOnClassesThat().resideInAPackage("io.tollgate.internal..")
                .check(TOLLGATE);
    }
}
