package routes.events;

public final class Event {
}
