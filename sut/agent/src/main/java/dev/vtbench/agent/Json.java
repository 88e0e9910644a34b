package dev.vtbench.agent;

/**
 * A tiny JSON writer (no library): appends to a StringBuilder. Callers keep the commas themselves via
 * {@link #key}, which writes a separating comma unless the object was just opened.
 */
public final class Json {
  private final StringBuilder sb;
  private boolean first = true;

  public Json(StringBuilder sb) {
    this.sb = sb;
  }

  public Json() {
    this(new StringBuilder(256));
  }

  public Json open() {
    sb.append('{');
    first = true;
    return this;
  }

  public Json close() {
    sb.append('}');
    first = false;
    return this;
  }

  public Json openArray() {
    sb.append('[');
    first = true;
    return this;
  }

  public Json closeArray() {
    sb.append(']');
    first = false;
    return this;
  }

  /** Writes a comma when needed, then nothing: for array elements. */
  public Json element() {
    if (!first) sb.append(',');
    first = false;
    return this;
  }

  public Json key(String k) {
    if (!first) sb.append(',');
    first = false;
    string(sb, k);
    sb.append(':');
    first = true; // the value that follows must not write a comma
    return this;
  }

  public Json value(String s) {
    if (s == null) sb.append("null");
    else string(sb, s);
    first = false;
    return this;
  }

  /** A number (Long, Integer, Double...) or null; non-finite doubles become null. */
  public Json value(Number n) {
    if (n == null) sb.append("null");
    else if (n instanceof Double d && (d.isNaN() || d.isInfinite())) sb.append("null");
    else if (n instanceof Float f && (f.isNaN() || f.isInfinite())) sb.append("null");
    else sb.append(n);
    first = false;
    return this;
  }

  public Json value(long n) {
    sb.append(n);
    first = false;
    return this;
  }

  public Json nullValue() {
    sb.append("null");
    first = false;
    return this;
  }

  public Json field(String k, String v) {
    return key(k).value(v);
  }

  public Json field(String k, Number v) {
    return key(k).value(v);
  }

  public Json field(String k, long v) {
    return key(k).value(v);
  }

  public StringBuilder builder() {
    return sb;
  }

  @Override
  public String toString() {
    return sb.toString();
  }

  /** Appends s as a JSON string literal (RFC 8259 escapes; control characters as \\u00XX). */
  public static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
