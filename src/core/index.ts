// PLACEHOLDER: the core engine's exports (parseRobotsTxt, …) go here.
export {};
