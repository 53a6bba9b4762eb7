package io.tollgate.internal.runtime;

import io.tollgate.RateLimitKey;
import io.tollgate.RateLimited;
import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What applies to one method of one class: the rules of its {@link RateLimited} (the method's own,
 * else its class's) and the position of its {@link RateLimitKey} parameter. Resolved once per
 * method, never per call.
 */
public final class Binding {

    /** Nothing to check. */
    public static final Binding NONE = new Binding(List.of(), -1, Object.class, "");

    private final List<RuleConfig> rules;
    private final int keyParameter;
    /** The class whose instance is called, without the subclasses a container generates. */
    private final Class<?> target;
    /** The name and parameter types of the method that runs: the same whichever class or interface names it. */
    private final String signature;

    private Binding(List<RuleConfig> rules, int keyParameter, Class<?> target, String signature) {
        this.rules = rules;
        this.keyParameter = keyParameter;
        this.target = target;
        this.signature = signature;
    }

    /**
     * @param type   the class whose instance is called (the JAX-RS resource class, the CDI bean class)
     * @param method the method called, as the runtime names it: the class's own, or the interface's it
     *               implements (JAX-RS runtimes may name either)
     * @throws IllegalStateException naming the rule and the element, if a rule is not configured
     */
    public static Binding of(Class<?> type, Method method, TollgateConfig config) {
        Method implementation = implementation(type, method);
        RateLimited annotation = annotation(type, implementation);
        if (annotation == null) {
            return NONE;
        }
        List<RuleConfig> rules = new ArrayList<>();
        for (String name : ruleNames(annotation, type, annotatedMethod(type, implementation))) {
            RuleConfig rule = config.rule(name);
            if (rule == null) {
                throw new IllegalStateException("tollgate.rules." + name + ": rule '" + name + "' used by "
                        + type.getName() + "." + method.getName() + " is not configured");
            }
            rules.add(rule);
        }
        int keyParameter = keyParameter(implementation);
        Method annotated = annotatedMethod(type, implementation);
        if (keyParameter < 0 && annotated != null && annotated != implementation) {
            keyParameter = keyParameter(annotated);
        }
        return new Binding(List.copyOf(rules), keyParameter, userClass(type),
                implementation.getName() + java.util.Arrays.toString(implementation.getParameterTypes()));
    }

    /** @return {@code type}, or the class a container generated it from (a subclass that intercepts, a proxy) */
    private static Class<?> userClass(Class<?> type) {
        Class<?> c = type;
        while (c.isSynthetic() && c.getSuperclass() != null && c.getSuperclass() != Object.class) {
            c = c.getSuperclass();
        }
        return c;
    }

    /**
     * @return the method of {@code type} that runs when {@code method} is called on one of its instances; for a
     *         method of a generic interface or class, the method the compiler's bridge calls
     */
    public static Method implementation(Class<?> type, Method method) {
        if (method.getDeclaringClass() == type && !method.isBridge()) {
            return method;
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Method declared = c.getDeclaredMethod(method.getName(), method.getParameterTypes());
                if (declared.isBridge()) {
                    Method bridged = bridged(c, declared);
                    if (bridged != null) {
                        return bridged;
                    }
                } else if (!java.lang.reflect.Modifier.isAbstract(declared.getModifiers())) {
                    return declared;
                }
            } catch (NoSuchMethodException e) {
                // look further up
            }
        }
        return method;
    }

    /** @return the method of {@code c} that {@code bridge} calls, or {@code null} if it is not the only candidate */
    private static Method bridged(Class<?> c, Method bridge) {
        Method found = null;
        for (Method candidate : c.getDeclaredMethods()) {
            if (!candidate.isBridge() && candidate.getName().equals(bridge.getName())
                    && candidate.getParameterCount() == bridge.getParameterCount()
                    && bridge.getReturnType().isAssignableFrom(candidate.getReturnType())
                    && assignable(bridge.getParameterTypes(), candidate.getParameterTypes())) {
                if (found != null) {
                    return null;
                }
                found = candidate;
            }
        }
        return found;
    }

    private static boolean assignable(Class<?>[] to, Class<?>[] from) {
        for (int i = 0; i < to.length; i++) {
            if (!to[i].isAssignableFrom(from[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the annotation that governs {@code method} of {@code type}: the method's own, else that of a
     *         method it overrides or implements (as JAX-RS reads annotations from interfaces), else the type's,
     *         else that of an interface the type implements
     */
    public static RateLimited annotation(Class<?> type, Method method) {
        Method annotated = annotatedMethod(type, method);
        if (annotated != null) {
            return annotated.getAnnotation(RateLimited.class);
        }
        RateLimited onType = type.getAnnotation(RateLimited.class);
        if (onType != null) {
            return onType;
        }
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> implemented : c.getInterfaces()) {
                RateLimited onInterface = typeAnnotation(implemented);
                if (onInterface != null) {
                    return onInterface;
                }
            }
        }
        return null;
    }

    /** @return {@code method}, or the method it overrides or implements, that carries the annotation; or {@code null} */
    private static Method annotatedMethod(Class<?> type, Method method) {
        if (method.isAnnotationPresent(RateLimited.class)) {
            return method;
        }
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            Method found = annotatedIn(c, method);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static Method annotatedIn(Class<?> c, Method method) {
        try {
            Method declared = c.getDeclaredMethod(method.getName(), method.getParameterTypes());
            if (declared.isAnnotationPresent(RateLimited.class)) {
                return declared;
            }
        } catch (NoSuchMethodException e) {
            // not declared here
        }
        for (Class<?> implemented : c.getInterfaces()) {
            Method found = annotatedIn(implemented, method);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static RateLimited typeAnnotation(Class<?> type) {
        RateLimited own = type.getAnnotation(RateLimited.class);
        if (own != null) {
            return own;
        }
        for (Class<?> parent : type.getInterfaces()) {
            RateLimited inherited = typeAnnotation(parent);
            if (inherited != null) {
                return inherited;
            }
        }
        return null;
    }

    /** @return the rule names of an annotation; with none, the element's own name */
    public static Set<String> ruleNames(RateLimited annotation, Class<?> type, Method method) {
        Set<String> names = new LinkedHashSet<>();
        for (String name : annotation.value()) {
            names.add(name.trim());
        }
        if (names.isEmpty()) {
            names.add(method != null && method.isAnnotationPresent(RateLimited.class)
                    ? method.getDeclaringClass().getName() + "." + method.getName()
                    : declaringType(type).getName());
        }
        return names;
    }

    /** @return the class that carries the type-level annotation (it may be inherited) */
    private static Class<?> declaringType(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getDeclaredAnnotation(RateLimited.class) != null) {
                return c;
            }
        }
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> implemented : c.getInterfaces()) {
                Class<?> found = declaringType(implemented);
                if (found.getDeclaredAnnotation(RateLimited.class) != null) {
                    return found;
                }
            }
        }
        return type;
    }

    /** @return the index of the {@link RateLimitKey} parameter, or -1 */
    public static int keyParameter(Method method) {
        Annotation[][] annotations = method.getParameterAnnotations();
        int found = -1;
        for (int i = 0; i < annotations.length; i++) {
            for (Annotation a : annotations[i]) {
                if (a.annotationType() == RateLimitKey.class) {
                    if (found >= 0) {
                        throw new IllegalStateException(method.getDeclaringClass().getName() + "." + method.getName()
                                + " has more than one @RateLimitKey parameter");
                    }
                    found = i;
                }
            }
        }
        return found;
    }

    public List<RuleConfig> rules() {
        return rules;
    }

    /** @return the index of the key parameter, or -1 */
    public int keyParameter() {
        return keyParameter;
    }

    /**
     * @param intercepted the binding of a call the interceptor sees
     * @return whether {@code intercepted} is a call of the resource method this binding stands for (the one the
     *         JAX-RS filter charged), however the runtime and the container name it: the same rules, the method of
     *         the same name and parameter types (bridges resolved), on an instance of this binding's class (the
     *         class itself, a subclass the container generates or a bean specializes, or a class implementing it
     *         where the runtime names an interface). A method of another class with that name, parameter types
     *         and rules is another call.
     */
    public boolean isCallOf(Binding intercepted) {
        return intercepted == this || (target.isAssignableFrom(intercepted.target)
                && signature.equals(intercepted.signature) && rules.equals(intercepted.rules));
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }
}
