package org.netnslab.design;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How strategy enums are spelled in HOCON: lower case with '-' for '_' ({@code PER_NETNS_OWNER} is
 * {@code per-netns-owner}). One place for every strategy key.
 */
public final class Strategies {
  private Strategies() {}

  /**
   * @param value a strategy
   * @return its HOCON spelling
   */
  public static String name(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @param type the strategy enum
   * @param key the configuration key, for the message
   * @param value the HOCON spelling
   * @param <E> the strategy type
   * @return the strategy
   * @throws IllegalArgumentException naming the key and the accepted values
   */
  public static <E extends Enum<E>> E parse(Class<E> type, String key, String value) {
    for (E e : type.getEnumConstants()) {
      if (name(e).equals(value)) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown " + key + " '" + value + "'; expected one of "
        + Arrays.stream(type.getEnumConstants()).map(Strategies::name).collect(Collectors.joining(", ")));
  }
}
