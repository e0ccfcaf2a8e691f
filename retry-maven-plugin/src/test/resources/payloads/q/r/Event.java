package q.r;

public final class Event {
}
