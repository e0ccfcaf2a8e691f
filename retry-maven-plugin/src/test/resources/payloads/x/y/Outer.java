package x.y;

public final class Outer {
    public static final class Exception {
    }

    public static final class _1 {
    }

    private Outer() {
    }
}
