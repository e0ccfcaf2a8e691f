package x.y;

public final class Routes {
}
