import { type Location, type NavigateFunction, useLocation, useNavigate } from 'react-router';

/**
 * What tests read of the router: the current location and a navigate function, shaped like a data router's
 * (`router.state.location`, `router.navigate`) although the app runs in declarative mode (app/routes.tsx).
 */
export interface TestRouter {
  state: { location: Location };
  navigate: NavigateFunction;
}

export function createTestRouter(): TestRouter {
  return {
    state: { location: { pathname: '/', search: '', hash: '', state: null, key: 'default' } },
    navigate: () => {
      throw new Error('The test router is not rendered yet');
    },
  };
}

/** Rendered inside the router: keeps `router` pointing at the location React Router last rendered. */
export function RouterProbe({ router }: { router: TestRouter }) {
  const location = useLocation();
  const navigate = useNavigate();
  router.state.location = location;
  router.navigate = navigate;
  return null;
}
