/** Podscope's mark: a node holding a pod and a container. Decorative (the title names the app). */
export function Logo() {
  return (
    <svg className="ps-logo" viewBox="0 0 24 24" aria-hidden="true">
      <rect x="2" y="3" width="20" height="18" rx="4" />
      <rect x="5.5" y="9" width="6" height="8" rx="2" />
      <rect x="13" y="9" width="5.5" height="3.5" rx="1.5" />
    </svg>
  );
}
