package q.r;

public final class Évent {
}
