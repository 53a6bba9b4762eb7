/**
 * Tollgate's configuration: the properties under {@code tollgate.}, each declared once in
 * {@link io.tollgate.internal.config.GlobalProperties} or {@link io.tollgate.internal.config.RuleAttributes},
 * parsed and validated once at deployment into immutable {@link io.tollgate.internal.config.RuleConfig}s and a
 * {@link io.tollgate.internal.config.TollgateConfig}. Framework-free: properties arrive through
 * {@link io.tollgate.internal.config.Settings}. Internal: no API guarantee.
 */
package io.tollgate.internal.config;
