// Inline line icons: no icon font, no extra requests. Each icon's shapes are one string of
// markup, so React renders one element per icon (a card's two icons were five elements of the
// category page's ~850, issue #13); the browser parses the same SVG, and hydration leaves it as is.
interface IconProps {
  size?: number;
}

function Svg({ size = 22, markup }: IconProps & { markup: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      dangerouslySetInnerHTML={{ __html: markup }}
    />
  );
}

/** A filled star for ratings (a glyph ★ would need a font the shop's subsets do not carry). */
export const StarIcon = (p: IconProps) => (
  <Svg
    {...p}
    markup={
      '<path d="M12 2.8l2.8 5.9 6.4.8-4.7 4.4 1.2 6.4L12 17.2l-5.7 3.1 1.2-6.4-4.7-4.4 6.4-.8z" fill="currentColor" stroke="none"></path>'
    }
  />
);
/** «Помог» under a review: a thumb up. */
export const ThumbUpIcon = (p: IconProps) => (
  <Svg
    {...p}
    markup={
      '<path d="M7 10.5V20H4v-9.5h3z"></path><path d="M7 10.5l3.6-7a2.2 2.2 0 0 1 2.4 2.3l-.4 3.4h5.6a1.9 1.9 0 0 1 1.9 2.2l-1.3 7A2 2 0 0 1 16.8 20H7"></path>'
    }
  />
);
export const BagIcon = (p: IconProps) => (
  <Svg {...p} markup={'<path d="M5 8h14l-1 12H6L5 8z"></path><path d="M9 8V6a3 3 0 0 1 6 0v2"></path>'} />
);
export const HeartIcon = (p: IconProps) => (
  <Svg {...p} markup={'<path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"></path>'} />
);
export const UserIcon = (p: IconProps) => (
  <Svg
    {...p}
    markup={'<circle cx="12" cy="8" r="3.5"></circle><path d="M5 20c.8-3.6 3.6-5.5 7-5.5s6.2 1.9 7 5.5"></path>'}
  />
);
export const SearchIcon = (p: IconProps) => (
  <Svg {...p} markup={'<circle cx="11" cy="11" r="6"></circle><path d="M20 20l-4.5-4.5"></path>'} />
);
export const MenuIcon = (p: IconProps) => <Svg {...p} markup={'<path d="M4 7h16M4 12h16M4 17h16"></path>'} />;
export const CloseIcon = (p: IconProps) => <Svg {...p} markup={'<path d="M6 6l12 12M18 6L6 18"></path>'} />;
export const ChatIcon = (p: IconProps) => (
  <Svg
    {...p}
    markup={
      '<path d="M20 12a7.5 7 0 0 1-10.6 6.4L4.5 20l1.4-4A7.5 7 0 1 1 20 12z"></path><path d="M9 11.5h.01M12.5 11.5h.01M16 11.5h.01" stroke-width="2"></path>'
    }
  />
);
export const GridIcon = (p: IconProps) => (
  <Svg
    {...p}
    markup={
      '<rect x="4" y="4" width="6.5" height="6.5"></rect><rect x="13.5" y="4" width="6.5" height="6.5"></rect><rect x="4" y="13.5" width="6.5" height="6.5"></rect><rect x="13.5" y="13.5" width="6.5" height="6.5"></rect>'
    }
  />
);
export const ExpandIcon = (p: IconProps) => (
  <Svg {...p} markup={'<path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"></path>'} />
);
export const ChevronIcon = (p: IconProps) => <Svg {...p} markup={'<path d="M9 6l6 6-6 6"></path>'} />;
