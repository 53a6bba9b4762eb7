package io.tollgate.quarkus.deployment;

import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.IndexDependencyBuildItem;
import io.tollgate.RateLimitKeyResolver;
import io.tollgate.RateLimited;
import io.tollgate.TollgateHazelcast;
import io.tollgate.jaxrs.RefusalBody;
import io.tollgate.quarkus.runtime.QuarkusTollgate;
import io.tollgate.quarkus.runtime.TollgateReadiness;
import io.tollgate.quarkus.runtime.TollgateRecorder;
import io.tollgate.quarkus.runtime.VertxFilterThreads;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

/**
 * Tollgate's part of a Quarkus build: has Quarkus index Tollgate's jar (Quarkus REST then finds its filter, mappers
 * and admin resource), adds Tollgate's beans as CDI Full's extension does (the readiness check and the OpenTelemetry
 * binding only where the application has their extensions), keeps the application's beans Tollgate looks up by type,
 * and hands the classes that use {@code @RateLimited} to the application's start.
 */
class TollgateProcessor {

    private static final String FEATURE = "tollgate";
    private static final DotName RATE_LIMITED = DotName.createSimple(RateLimited.class);
    private static final String INTERNAL_PACKAGES = "io.tollgate.internal.";
    private static final String INTERNAL = INTERNAL_PACKAGES + "cdi.";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    IndexDependencyBuildItem indexTollgate() {
        return new IndexDependencyBuildItem("io.tollgate", "tollgate");
    }

    @BuildStep
    void beans(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<UnremovableBeanBuildItem> unremovable) {
        // what CDI Full's extension adds (TollgateExtension.registerBeans), and Quarkus's start-up
        AdditionalBeanBuildItem.Builder tollgate = AdditionalBeanBuildItem.builder().setUnremovable()
                .addBeanClasses(QuarkusTollgate.class, VertxFilterThreads.class, RateLimited.class, TollgateHazelcast.class)
                .addBeanClasses(INTERNAL + "RateLimitInterceptor", INTERNAL + "RequestState", INTERNAL + "DefaultRateLimiter",
                        INTERNAL + "DefaultRateLimitAdmin", INTERNAL + "DefaultRateLimitRules", INTERNAL + "RequestEnd");
        if (capabilities.isPresent(Capability.OPENTELEMETRY_TRACER)) {
            tollgate.addBeanClass("io.tollgate.internal.telemetry.TelemetryBinding");
        }
        if (capabilities.isPresent(Capability.SMALLRYE_HEALTH) && enabled("tollgate.health")) {
            tollgate.addBeanClass(TollgateReadiness.class);
        }
        beans.produce(tollgate.build());
        // looked up by type when Tollgate starts or refuses, never injected
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(RateLimitKeyResolver.class, RefusalBody.class));
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(DotName.createSimple("com.hazelcast.core.HazelcastInstance")));
    }

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void annotatedClasses(CombinedIndexBuildItem combined, TollgateRecorder recorder) {
        recorder.annotatedClasses(annotatedClasses(combined.getIndex()));
    }

    /**
     * @return the classes and interfaces that carry {@code @RateLimited} on themselves or on a method, and the
     *         subclasses that inherit such a method: what CDI Full's extension is shown
     */
    static List<String> annotatedClasses(IndexView index) {
        Set<String> names = new LinkedHashSet<>();
        List<ClassInfo> declaring = new ArrayList<>();
        for (AnnotationInstance annotation : index.getAnnotations(RATE_LIMITED)) {
            AnnotationTarget target = annotation.target();
            ClassInfo type = switch (target.kind()) {
                case CLASS -> target.asClass();
                case METHOD -> target.asMethod().declaringClass();
                default -> null;
            };
            // Tollgate's interceptor carries its binding: not a use
            if (type != null && !type.name().toString().startsWith(INTERNAL_PACKAGES) && names.add(type.name().toString())) {
                declaring.add(type);
            }
        }
        for (ClassInfo type : declaring) {
            if (!type.isInterface()) {
                for (ClassInfo subclass : index.getAllKnownSubclasses(type.name())) {
                    names.add(subclass.name().toString());
                }
            }
        }
        return new ArrayList<>(names);
    }

    private static boolean enabled(String property) {
        return !"false".equalsIgnoreCase(ConfigProvider.getConfig().getOptionalValue(property, String.class)
                .map(String::trim).orElse("true"));
    }
}
