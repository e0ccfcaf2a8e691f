package x.y;

public final class SuppressWarnings {
}
