// The entry point the resources import; the implementation lives with the shared connection.
export { useUserChannelEvent } from './RealtimeProvider';
